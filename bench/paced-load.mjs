// Paced (open-loop) load: one request every 1/rate s, sent at its time whether or not earlier
// ones were answered, as a steady stream of clients would send them. Latency is measured from
// the time a request was due, not from when a free connection let it go, so a stall of the
// server counts against every request it delayed (no coordinated omission, as in wrk2).
// autocannon's -R is not this: it lets each connection send its per-second quota back to back,
// then waits for the next second, which measures bursts.
//
// Usage: node bench/paced-load.mjs '{"url","method","headers","body","rate","seconds","connections"}'
// Prints JSON: { requests, rps, latency: { p50, p99, max } (ms), non2xx, errors }.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout } from 'node:timers';

const TIMEOUT_MS = 10_000;
const opts = JSON.parse(process.argv[2] ?? '{}');
const { url, method = 'GET', headers = {}, body, rate, seconds, connections = 8 } = opts;
if (!(rate > 0 && seconds > 0)) throw new Error('rate and seconds must be positive');

const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const total = Math.round(rate * seconds);
const interval = 1000 / rate;
const latencies = [];
let non2xx = 0;
let errors = 0;
let sent = 0;
let finished = 0;
const start = performance.now() + 20;

function fire(due) {
  let settled = false;
  const settle = (latency, ok) => {
    if (settled) return;
    settled = true;
    if (latency === undefined) errors += 1;
    else {
      latencies.push(latency);
      if (!ok) non2xx += 1;
    }
    finished += 1;
    if (finished === total) report();
  };
  const req = http.request(url, { method, headers, agent, timeout: TIMEOUT_MS }, (res) => {
    res.resume();
    res.on('end', () =>
      settle(performance.now() - due, res.statusCode < 300 && res.statusCode >= 200),
    );
    res.on('error', () => settle(undefined, false));
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => settle(undefined, false));
  req.end(body);
}

/** Sends every request that is due (catching up after a late timer), then sleeps to the next. */
function tick() {
  const now = performance.now();
  for (; sent < total && start + sent * interval <= now; sent += 1) fire(start + sent * interval);
  if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

let reported = false;
function report() {
  if (reported) return;
  reported = true;
  errors += total - finished; // never answered nor failed by the deadline
  const sorted = latencies.sort((a, b) => a - b);
  const elapsed = (performance.now() - start) / 1000;
  const round = (ms) => Math.round(ms * 10) / 10;
  const latency = {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
  const rps = Math.round(latencies.length / elapsed);
  const figures = { requests: latencies.length, rps, latency, non2xx, errors };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  agent.destroy();
}

setTimeout(tick, Math.max(0, start - performance.now()));
// a request that neither ends nor fails cannot hold the report back
setTimeout(report, seconds * 1000 + TIMEOUT_MS + 1000).unref();

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { MS_PER_JIFFY, cpuMillis, databaseCpuMillis, machineJiffies } from './cpu.js';

const run = promisify(execFile);

/** A load generator's JSON report, from a Node script run in a process of its own. */
async function generatorReport<T>(args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as T;
}
const AUTOCANNON = path.resolve(import.meta.dirname, '../node_modules/autocannon/autocannon.js');
const PACED_LOAD = path.resolve(import.meta.dirname, 'paced-load.mjs');

/**
 * prom-client samples the event loop every 10 ms (monitorEventLoopDelay's resolution), and its
 * maximum is the longest gap between two samples: 10 ms on an idle loop. A gap of G ms means a
 * stall of at least G - 10 ms, which is what the table reports.
 */
const LAG_RESOLUTION_MS = 10;

/** What a load generator measured. */
interface Measured {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** A row of the table: what the generator measured, and what the server and machine did. */
export interface Figures extends Measured {
  name: string;
  /** CPU time (user + system) the server process spent per request, when its pid was given. */
  cpuMsPerRequest?: number;
  /**
   * CPU time the local PostgreSQL server spent per request (LoadOptions.databasePids): every
   * backend and background process, every database on it.
   */
  databaseCpuMsPerRequest?: number;
  /**
   * The service's longest event-loop stall during the run, at least this long (its /metrics,
   * when given; see LAG_RESOLUTION_MS).
   */
  loopLagMaxMs?: number;
  /** Main-thread GC pause time per request (its /metrics, when given). */
  gcMsPerRequest?: number;
  /**
   * How busy the whole machine was during the run, as a share of all its cores (/proc/stat):
   * well under 100% while the service is saturated means its event loop, not the machine, is
   * the limit.
   */
  machineBusy: number;
  /**
   * CPU time (user + system) the whole machine spent per request: the server, the database and
   * the load generator together (/proc/stat). The cores divided by it bound the requests per
   * second this machine can serve, however the work is spread over its processes and threads.
   */
  machineCpuMsPerRequest?: number;
  /** Write-ahead log the database wrote per request, in bytes (see LoadOptions.walPosition). */
  walBytesPerRequest?: number;
}

/** A /metrics endpoint (Prometheus text) of the server under load. */
export interface MetricsEndpoint {
  url: string;
  token: string;
}

interface ProcessMetrics {
  lagMaxSeconds: number;
  gcSeconds: number;
}

/**
 * Reads prom-client's default process metrics. Reading also restarts the event-loop delay
 * histogram, so a read just before a run makes the next read's maximum that run's.
 */
async function processMetrics(endpoint: MetricsEndpoint): Promise<ProcessMetrics> {
  const res = await fetch(endpoint.url, { headers: { authorization: `Bearer ${endpoint.token}` } });
  const text = await res.text();
  const values = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].map((m) =>
      Number(m[1]),
    );
  return {
    lagMaxSeconds: values('nodejs_eventloop_lag_max_seconds')[0] ?? Number.NaN,
    gcSeconds: values('nodejs_gc_duration_seconds_sum').reduce((a, b) => a + b, 0),
  };
}

export interface LoadOptions {
  /** Base URL of the server under load (another process). */
  url: string;
  path: string;
  /**
   * Paced load: requests per second, sent on schedule over at most `connections` keep-alive
   * connections (bench/paced-load.mjs).
   */
  rate?: number;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** The server's pid: its CPU time over the run is reported per request (Linux /proc). */
  serverPid?: number | undefined;
  metrics?: MetricsEndpoint | undefined;
  /**
   * The database's write-ahead log position in bytes (PostgreSQL's `pg_current_wal_lsn()`): the
   * log written over the run is reported per request. It counts the whole database server's
   * writes, the seals' included, so it means something only on an otherwise idle server.
   */
  walPosition?: (() => Promise<number>) | undefined;
  /** The local PostgreSQL postmasters (bench/cpu.ts): their CPU over the run per request. */
  databasePids?: number[] | undefined;
}

/**
 * Waits (at most `maxMs`) until the machine is quiet: under 10% busy over half a second. The
 * previous run leaves work behind (the seal of its backlog, PostgreSQL's autovacuum of the rows
 * it inserted); a run that started at once would measure that aftermath, not its own load.
 */
export async function settle(maxMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + maxMs; Date.now() < deadline;) {
    const a = machineJiffies();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const b = machineJiffies();
    if (b.busy - a.busy < 0.1 * (b.total - a.total)) return;
  }
}

/** Closed-loop load at full speed: `connections` clients, each sending as soon as answered. */
async function autocannon(opts: LoadOptions, headers: Record<string, string>): Promise<Measured> {
  const args = [
    AUTOCANNON,
    '-j',
    '-c',
    String(opts.connections),
    '-d',
    String(opts.seconds),
    '-m',
    opts.method ?? 'GET',
  ];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  if (opts.body) args.push('-b', opts.body);
  args.push(`${opts.url}${opts.path}`);
  const result = await generatorReport<{
    requests: { total: number; average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  }>(args);
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Open-loop load at `opts.rate` per second, latency from each request's due time. */
async function paced(
  opts: LoadOptions & { rate: number },
  headers: Record<string, string>,
): Promise<Measured> {
  const settings = {
    url: `${opts.url}${opts.path}`,
    method: opts.method ?? 'GET',
    headers,
    body: opts.body,
    rate: opts.rate,
    seconds: opts.seconds,
    connections: opts.connections,
  };
  const result = await generatorReport<
    Omit<Measured, 'p50' | 'p99'> & { latency: { p50: number; p99: number } }
  >([PACED_LOAD, JSON.stringify(settings)]);
  return { ...result, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * Load from a separate process, so the load generator does not share the server's event loop:
 * on 2 cores, one drives and one serves. With `rate`, paced (bench/paced-load.mjs); without,
 * autocannon at full speed.
 */
export async function load(name: string, opts: LoadOptions): Promise<Figures> {
  const headers = { 'content-type': 'application/json', ...opts.headers };
  await settle();
  const metricsBefore = opts.metrics ? await processMetrics(opts.metrics) : undefined;
  const cpuBefore = opts.serverPid ? cpuMillis(opts.serverPid) : undefined;
  const db = opts.databasePids?.length ? opts.databasePids : undefined;
  const dbBefore = db && databaseCpuMillis(db);
  const machineBefore = machineJiffies();
  const walBefore = await opts.walPosition?.();
  const { rate } = opts;
  const result = rate ? await paced({ ...opts, rate }, headers) : await autocannon(opts, headers);
  const machineAfter = machineJiffies();
  const walAfter = await opts.walPosition?.();
  const cpu = opts.serverPid && cpuBefore !== undefined ? cpuMillis(opts.serverPid) - cpuBefore : 0;
  const dbCpu = db && dbBefore !== undefined ? databaseCpuMillis(db) - dbBefore : undefined;
  const metricsAfter = opts.metrics ? await processMetrics(opts.metrics) : undefined;
  const busyJiffies = machineAfter.busy - machineBefore.busy;
  return {
    name,
    ...result,
    machineBusy: busyJiffies / (machineAfter.total - machineBefore.total || 1),
    ...(result.requests > 0
      ? { machineCpuMsPerRequest: (busyJiffies * MS_PER_JIFFY) / result.requests }
      : {}),
    ...(opts.serverPid && result.requests > 0 ? { cpuMsPerRequest: cpu / result.requests } : {}),
    ...(dbCpu !== undefined && result.requests > 0
      ? { databaseCpuMsPerRequest: dbCpu / result.requests }
      : {}),
    ...(walBefore !== undefined && walAfter !== undefined && result.requests > 0
      ? { walBytesPerRequest: (walAfter - walBefore) / result.requests }
      : {}),
    ...(metricsBefore && metricsAfter && result.requests > 0
      ? {
          loopLagMaxMs: Math.max(0, metricsAfter.lagMaxSeconds * 1000 - LAG_RESOLUTION_MS),
          gcMsPerRequest:
            ((metricsAfter.gcSeconds - metricsBefore.gcSeconds) * 1000) / result.requests,
        }
      : {}),
  };
}

export function printTable(rows: Figures[], baseline: Figures): void {
  console.log(
    '\n| run | requests | req/s | p50 ms | p99 ms | non-2xx | errors | vs bare route | server CPU ms/req | database CPU ms/req | GC ms/req | longest loop stall ms | machine busy | machine CPU ms/req | WAL B/req |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ratio = (r.rps / baseline.rps).toFixed(3);
    console.log(
      `| ${r.name} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${ratio} | ${fixed(r.cpuMsPerRequest)} | ${fixed(r.databaseCpuMsPerRequest)} | ${fixed(r.gcMsPerRequest)} | ${fixed(r.loopLagMaxMs, 0)} | ${percent(r.machineBusy)} | ${fixed(r.machineCpuMsPerRequest)} | ${fixed(r.walBytesPerRequest, 0)} |`,
    );
  }
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** A figure a run may lack (no server pid, no /metrics): empty cell when absent. */
const fixed = (value: number | undefined, digits = 3): string =>
  value === undefined ? '' : value.toFixed(digits);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Each run's median over rounds (row 0 of each round is the bare route). The ratio is the median
 * of each round's own ratio to the bare route measured in that round, with its range.
 */
export function printMedians(rounds: Figures[][]): void {
  console.log(`\nmedian of ${rounds.length} rounds`);
  console.log(
    '\n| run | req/s | p50 ms | p99 ms | vs bare route (range) | server CPU ms/req | database CPU ms/req | machine busy | machine CPU ms/req | WAL B/req |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const names = rounds[0]!.map((r) => r.name);
  for (const name of names) {
    const rows = rounds.flatMap((round) => {
      const row = round.find((r) => r.name === name);
      return row ? [{ row, ratio: row.rps / round[0]!.rps }] : [];
    });
    const ratios = rows.map((r) => r.ratio);
    const present = (pick: (f: Figures) => number | undefined, digits = 3) => {
      const values = rows.flatMap((r) => {
        const value = pick(r.row);
        return value === undefined ? [] : [value];
      });
      return fixed(values.length ? median(values) : undefined, digits);
    };
    const middle = (pick: (f: Figures) => number) => median(rows.map((r) => pick(r.row)));
    const cell = (pick: (f: Figures) => number) => Math.round(middle(pick));
    // the paced generator gives latency to 0.1 ms, autocannon to 1 ms
    const ms = (pick: (f: Figures) => number) => Math.round(middle(pick) * 10) / 10;
    console.log(
      `| ${name} | ${cell((f) => f.rps)} | ${ms((f) => f.p50)} | ${ms((f) => f.p99)} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}) | ${present((f) => f.cpuMsPerRequest)} | ${present((f) => f.databaseCpuMsPerRequest)} | ${percent(median(rows.map((r) => r.row.machineBusy)))} | ${present((f) => f.machineCpuMsPerRequest)} | ${present((f) => f.walBytesPerRequest, 0)} |`,
    );
  }
}

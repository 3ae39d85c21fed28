/**
 * Integration latency: receipts issued at a steady rate against the service as built
 * (`node dist/server.js`, default sealer settings), and for each the time from its issuance
 * answer to the first signed checkpoint that covers it, as a client polling the public
 * checkpoint sees it. The service runs in its own process; this process paces the requests and
 * watches the checkpoint.
 *   npm run bench:inclusion   (BENCH_RATE=200 receipts/s, BENCH_SECONDS=10,
 *                              BENCH_STORES=embedded,postgres,
 *                              BENCH_MAX_SECONDS=5: the maximum-throughput run,
 *                              BENCH_LOAD_SHARE=0.8: the second paced rate, of that maximum,
 *                              BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test,
 *                              BENCH_WORKERS=auto: the service's WORKERS on PostgreSQL,
 *                              BENCH_JSON=file: write the rows to file as JSON)
 *
 * Per store, on one fresh service process: paced at BENCH_RATE; then POST /verify at full speed
 * (autocannon, 50 connections, BENCH_MAX_SECONDS) for the store's maximum throughput; then paced
 * at BENCH_LOAD_SHARE of that maximum.
 *
 * Method of a paced run: a request is sent every 1/rate s (not waiting for the previous answer);
 * the moment each answer arrives is kept with its receipt id. Meanwhile GET /log/checkpoint is
 * read every 10 ms and the first moment each tree size is seen is kept. After the run, each
 * receipt's log index comes from POST /api/v1/anchor/{id}; its inclusion latency is the first
 * moment a checkpoint of size > index was seen, minus its answer's moment (so it includes up to
 * 10 ms of polling). CPU per receipt counts the run and the 3 s after it (the last seals): the
 * whole machine (/proc/stat), the service's processes, and the local PostgreSQL server's.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { StoreConfig } from '../src/config.js';
import {
  cpuMillis,
  databaseCpuMillis,
  machineJiffies,
  MS_PER_JIFFY,
  postmasterPids,
} from './cpu.js';
import { load, settle } from './harness.js';
import { dropStore, freshStore, startBenchService, type BenchService } from './service.js';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const STORES = (process.env.BENCH_STORES ?? 'embedded,postgres').split(',');
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 5);
const LOAD_SHARE = Number(process.env.BENCH_LOAD_SHARE ?? 0.8);
const POLL_MS = 10;
/** After a paced run: the last receipts' seal (the first seal after a quiet log follows at once). */
const TAIL_MS = 3_000;

interface Issued {
  receiptId: string;
  answeredAt: number;
  sentAt: number;
}

/** One paced run's figures (milliseconds); bench/goals.ts reads them from BENCH_JSON. */
export interface InclusionRow {
  store: 'embedded' | 'postgres';
  label: string;
  rate: number;
  receipts: number;
  checkpoints: number;
  p50: number;
  p99: number;
  max: number;
  answerP50: number;
  answerP99: number;
  missing: number;
  /** The whole machine's CPU per receipt (every process on it, the other load included). */
  machineCpuMs: number;
  /** The service's processes' CPU per receipt. */
  serviceCpuMs: number;
  /** The local PostgreSQL server's CPU per receipt (every database on it); PostgreSQL only. */
  databaseCpuMs?: number;
  /** The maximum POST /verify req/s the rate was derived from, for the 80 % run. */
  maxRps?: number;
}

/** Reads the checkpoint every POLL_MS until stopped; the first moment each size was seen. */
function watchCheckpoint(url: string) {
  const seen: { size: number; at: number }[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const res = await fetch(`${url}/log/checkpoint`);
      const at = performance.now();
      if (res.ok) {
        const size = Number((await res.text()).split('\n')[1]);
        if (size > (seen.at(-1)?.size ?? 0)) seen.push({ size, at });
      } else await res.body?.cancel();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();
  return {
    seen,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/**
 * Keep-alive connections of the paced sender: enough for the highest paced rate at tens of
 * milliseconds per answer. node:http over a bounded agent, not fetch: at 1,500 requests/s
 * fetch's own CPU took a third of the host's two cores from the service it measures.
 */
const SENDER = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One POST /api/v1/verify; resolves with the receipt id (undefined unless 200) when answered. */
function issueOne(svc: BenchService): Promise<string | undefined> {
  return new Promise((resolve) => {
    const headers = { 'x-api-key': svc.token, 'content-type': 'application/json' };
    const req = http.request(
      `${svc.server.url}/api/v1/verify`,
      { method: 'POST', headers, agent: SENDER },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const id = /"receiptId":"([^"]+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
          resolve(res.statusCode === 200 ? id : undefined);
        });
        res.on('error', () => resolve(undefined));
      },
    );
    req.on('error', () => resolve(undefined));
    req.end(svc.body);
  });
}

/** Sends one issuance every 1/rate s for SECONDS; resolves with every answer's moment. */
async function paced(svc: BenchService, rate: number): Promise<Issued[]> {
  const issued: Issued[] = [];
  const sends: Promise<void>[] = [];
  const start = performance.now();
  const total = Math.round(rate * SECONDS);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sentAt = performance.now();
    sends.push(
      issueOne(svc).then((receiptId) => {
        if (receiptId) issued.push({ receiptId, answeredAt: performance.now(), sentAt });
      }),
    );
  }
  await Promise.all(sends);
  return issued;
}

/** Each receipt's log index (-1 when not anchored), asked 16 at a time. */
async function logIndexes(svc: BenchService, issued: Issued[]): Promise<number[]> {
  const indexes: number[] = [];
  for (let i = 0; i < issued.length; i += 16) {
    const batch = issued.slice(i, i + 16).map(async ({ receiptId }) => {
      const res = await fetch(`${svc.server.url}/api/v1/anchor/${receiptId}`, {
        method: 'POST',
        headers: { 'x-api-key': svc.token },
      });
      const state = (await res.json()) as { status: string; logIndex?: number };
      return state.status === 'ANCHORED' && state.logIndex !== undefined ? state.logIndex : -1;
    });
    indexes.push(...(await Promise.all(batch)));
  }
  return indexes;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** CPU milliseconds so far: the machine's, the service's, the local PostgreSQL server's. */
function cpuNow(svc: BenchService, postmasters: number[] | undefined) {
  return {
    machine: machineJiffies().busy * MS_PER_JIFFY,
    service: cpuMillis(svc.server.child.pid ?? 0),
    database: postmasters?.length ? databaseCpuMillis(postmasters) : undefined,
  };
}

/** One paced run at `rate` on the running service: latencies and CPU per receipt. */
async function inclusionRun(
  svc: BenchService,
  store: InclusionRow['store'],
  rate: number,
  of = '',
): Promise<InclusionRow> {
  await settle();
  const postmasters = store === 'postgres' ? postmasterPids() : undefined;
  const before = cpuNow(svc, postmasters);
  const watcher = watchCheckpoint(svc.server.url);
  const issued = await paced(svc, rate);
  await new Promise((r) => setTimeout(r, TAIL_MS));
  await watcher.stop();
  const after = cpuNow(svc, postmasters);
  const indexes = await logIndexes(svc, issued);
  const latencies: number[] = [];
  let missing = 0;
  issued.forEach((r, i) => {
    const cover = watcher.seen.find((c) => c.size > (indexes[i] ?? -1));
    if (indexes[i] === -1 || !cover) missing += 1;
    else latencies.push(Math.max(0, cover.at - r.answeredAt));
  });
  latencies.sort((a, b) => a - b);
  const answers = issued.map((r) => r.answeredAt - r.sentAt).sort((a, b) => a - b);
  const per = (ms: number) => ms / (issued.length || 1);
  return {
    store,
    label: `${store}, paced ${Math.round(rate)} receipts/s${of}, ${SECONDS} s`,
    rate,
    receipts: issued.length,
    checkpoints: watcher.seen.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    answerP50: quantile(answers, 0.5),
    answerP99: quantile(answers, 0.99),
    missing,
    machineCpuMs: per(after.machine - before.machine),
    serviceCpuMs: per(after.service - before.service),
    ...(before.database !== undefined && after.database !== undefined
      ? { databaseCpuMs: per(after.database - before.database) }
      : {}),
  };
}

/** The store's maximum POST /verify throughput: autocannon, 50 connections, MAX_SECONDS. */
async function maxThroughput(svc: BenchService, store: string): Promise<number> {
  const figures = await load(`POST /verify, ${store}, maximum`, {
    url: svc.server.url,
    path: '/api/v1/verify',
    method: 'POST',
    body: svc.body,
    headers: { 'x-api-key': svc.token },
    connections: 50,
    seconds: MAX_SECONDS,
  });
  return figures.rps;
}

/** The store's two paced runs (BENCH_RATE, then BENCH_LOAD_SHARE of its maximum) on one service. */
async function runStore(kind: InclusionRow['store'], store: StoreConfig): Promise<InclusionRow[]> {
  const svc = await startBenchService(store, { scopes: ['verify', 'read', 'anchor'] });
  try {
    const rows = [await inclusionRun(svc, kind, RATE)];
    const maxRps = await maxThroughput(svc, kind);
    const of = ` (${Math.round(LOAD_SHARE * 100)} % of ${maxRps} req/s)`;
    rows.push({ ...(await inclusionRun(svc, kind, LOAD_SHARE * maxRps, of)), maxRps });
    return rows;
  } finally {
    await svc.server.stop();
  }
}

function printRows(rows: InclusionRow[]): void {
  const ms = (n: number | undefined, digits = 0) => (n === undefined ? '' : n.toFixed(digits));
  console.log(
    '| run | receipts | checkpoints seen | answer to proof p50 / p99 / max (ms) | answer p50 / p99 (ms) | not in a checkpoint | machine CPU ms/receipt | service CPU ms/receipt | PostgreSQL CPU ms/receipt |',
  );
  console.log('| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.receipts} | ${r.checkpoints} | ${ms(r.p50)} / ${ms(r.p99)} / ${ms(r.max)} | ${ms(r.answerP50)} / ${ms(r.answerP99)} | ${r.missing} | ${ms(r.machineCpuMs, 3)} | ${ms(r.serviceCpuMs, 3)} | ${ms(r.databaseCpuMs, 3)} |`,
    );
  }
}

const rows: InclusionRow[] = [];
for (const kind of STORES) {
  if (kind !== 'embedded' && kind !== 'postgres') throw new Error(`unknown store ${kind}`);
  const store = freshStore(kind);
  try {
    rows.push(...(await runStore(kind, store)));
  } finally {
    await dropStore(store);
  }
}
printRows(rows);
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(rows));

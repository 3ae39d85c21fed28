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
 * Per store, on one fresh service process with two witnesses (test/helpers/witness-server.mjs,
 * written from c2sp.org/tlog-witness, each in its own process; WITNESS_QUORUM=2): paced at
 * BENCH_RATE, then the same with `Prefer: wait=10, witnessed`; then POST /verify at full speed
 * (autocannon, 50 connections, BENCH_MAX_SECONDS) for the store's maximum throughput; then both
 * paced runs at BENCH_LOAD_SHARE of that maximum.
 *
 * A witnessed run's latency is from sending the request to its answer, which waits (server side)
 * until the receipt is in a checkpoint that carries both witnesses' cosignatures; an answer
 * without them (the 10 s ran out, or not 200) counts as not witnessed.
 *
 * Method of a paced run: a request is sent every 1/rate s (not waiting for the previous answer);
 * the moment each answer arrives is kept with its receipt id. Meanwhile GET /log/checkpoint is
 * read every 10 ms and the first moment each tree size is seen is kept. After the run, each
 * receipt's log index comes from POST /api/v1/anchor/{id}; its inclusion latency is the first
 * moment a checkpoint of size > index was seen, minus its answer's moment (so it includes up to
 * 10 ms of polling). CPU per receipt counts the run and the 3 s after it (the last seals): the
 * whole machine (/proc/stat), the service's processes, and the local PostgreSQL server's.
 */
import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { formatVerifierKey } from '@verification-receipts/verify/log';
import type { StoreConfig } from '../src/config.js';
import { ed25519Pem } from '../test/helpers/context.js';
import { startWitness, type TestWitness } from '../test/helpers/witness.js';
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
  /** Undefined when the answer was not 200. */
  receiptId: string | undefined;
  answeredAt: number;
  sentAt: number;
  /** A witnessed run's answer carried the quorum's cosignatures. */
  witnessed: boolean;
}

/** The preference of a witnessed run: the longest wait the service honours. */
const WITNESSED = 'wait=10, witnessed';
const LOG_ORIGIN = 'bench.local/log';

/** One paced run's figures (milliseconds); bench/goals.ts reads them from BENCH_JSON. */
export interface InclusionRow {
  store: 'embedded' | 'postgres';
  /**
   * `proof`: p50..max are from the answer to the first checkpoint covering the receipt;
   * `witnessed`: from sending the request to its `Prefer: wait=10, witnessed` answer.
   */
  mode: 'proof' | 'witnessed';
  label: string;
  rate: number;
  receipts: number;
  checkpoints: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  answerP50: number;
  answerP99: number;
  /** `proof`: receipts in no checkpoint seen; `witnessed`: answers without the cosignatures. */
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
/**
 * A witnessed run holds each request about a second: at 80 % of the maximum that is a thousand
 * or more at once (the service's MAX_CONNECTIONS is raised to match).
 */
const WAITING_SENDER = new http.Agent({ keepAlive: true, maxSockets: 4_000 });

/** One POST /api/v1/verify; resolves when answered (receipt id undefined unless 200). */
function issueOne(
  svc: BenchService,
  prefer?: string,
): Promise<{ id: string | undefined; witnessed: boolean }> {
  return new Promise((resolve) => {
    const failed = () => resolve({ id: undefined, witnessed: false });
    const headers = {
      'x-api-key': svc.token,
      'content-type': 'application/json',
      ...(prefer ? { prefer } : {}),
    };
    const agent = prefer ? WAITING_SENDER : SENDER;
    const req = http.request(
      `${svc.server.url}/api/v1/verify`,
      { method: 'POST', headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const id = /"receiptId":"([^"]+)"/.exec(body)?.[1];
          const ok = res.statusCode === 200;
          resolve({ id: ok ? id : undefined, witnessed: ok && body.includes('"witnessed":true') });
        });
        res.on('error', failed);
      },
    );
    req.on('error', failed);
    req.end(svc.body);
  });
}

/** Sends one issuance every 1/rate s for SECONDS; resolves with every answer's moment. */
async function paced(svc: BenchService, rate: number, prefer?: string): Promise<Issued[]> {
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
      issueOne(svc, prefer).then(({ id, witnessed }) => {
        const answeredAt = performance.now();
        issued.push({ receiptId: id, answeredAt, sentAt, witnessed });
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
  options: { of?: string; mode?: InclusionRow['mode'] } = {},
): Promise<InclusionRow> {
  const { of = '', mode = 'proof' } = options;
  await settle();
  const postmasters = store === 'postgres' ? postmasterPids() : undefined;
  const before = cpuNow(svc, postmasters);
  const watcher = watchCheckpoint(svc.server.url);
  const all = await paced(svc, rate, mode === 'witnessed' ? WITNESSED : undefined);
  await new Promise((r) => setTimeout(r, TAIL_MS));
  await watcher.stop();
  const after = cpuNow(svc, postmasters);
  const issued = all.filter((r) => r.receiptId !== undefined);
  const { latencies, missing } =
    mode === 'witnessed'
      ? witnessedLatencies(all)
      : await proofLatencies(svc, issued, watcher.seen);
  const answers = issued.map((r) => r.answeredAt - r.sentAt).sort((a, b) => a - b);
  const per = (ms: number) => ms / (issued.length || 1);
  const what = mode === 'witnessed' ? `, ${WITNESSED}` : '';
  return {
    store,
    mode,
    label: `${store}, paced ${Math.round(rate)} receipts/s${of}${what}, ${SECONDS} s`,
    rate,
    receipts: issued.length,
    checkpoints: watcher.seen.length,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
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

/** Answer to the first checkpoint seen covering each receipt; those never covered are missing. */
async function proofLatencies(
  svc: BenchService,
  issued: Issued[],
  seen: { size: number; at: number }[],
): Promise<{ latencies: number[]; missing: number }> {
  const indexes = await logIndexes(svc, issued);
  const latencies: number[] = [];
  let missing = 0;
  issued.forEach((r, i) => {
    const cover = seen.find((c) => c.size > (indexes[i] ?? -1));
    if (indexes[i] === -1 || !cover) missing += 1;
    else latencies.push(Math.max(0, cover.at - r.answeredAt));
  });
  return { latencies: latencies.sort((a, b) => a - b), missing };
}

/** Request to its witnessed answer; answers without the cosignatures (or not 200) are missing. */
function witnessedLatencies(all: Issued[]): { latencies: number[]; missing: number } {
  const witnessed = all.filter((r) => r.witnessed);
  const latencies = witnessed.map((r) => r.answeredAt - r.sentAt).sort((a, b) => a - b);
  return { latencies, missing: all.length - witnessed.length };
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

/**
 * Two witnesses of the service's log (its origin and the key it signs with), each in its own
 * process, and the service's environment naming them with a quorum of two.
 */
async function twoWitnesses(): Promise<{ witnesses: TestWitness[]; env: Record<string, string> }> {
  const pem = ed25519Pem();
  const x = createPublicKey(pem).export({ format: 'jwk' }).x as string;
  const logVkey = formatVerifierKey(LOG_ORIGIN, new Uint8Array(Buffer.from(x, 'base64url')));
  const witnesses = await Promise.all(
    ['bench.local/w1', 'bench.local/w2'].map((name) =>
      startWitness({ name, seed: Buffer.from(name.padEnd(32, '.')).toString('hex'), logVkey }),
    ),
  );
  const env = {
    SIGNING_KEY: pem,
    LOG_ORIGIN,
    WITNESSES: witnesses.map((w) => `${w.vkey}@${w.url}`).join(','),
    WITNESS_QUORUM: '2',
    MAX_CONNECTIONS: '5000',
    MAX_CONNECTIONS_PER_ADDRESS: '5000',
  };
  return { witnesses, env };
}

/**
 * The store's paced runs on one service with two witnesses: BENCH_RATE, answer to proof and
 * witnessed; the maximum; then both at BENCH_LOAD_SHARE of it.
 */
async function runStore(kind: InclusionRow['store'], store: StoreConfig): Promise<InclusionRow[]> {
  const { witnesses, env } = await twoWitnesses();
  const svc = await startBenchService(store, { scopes: ['verify', 'read', 'anchor'], env });
  try {
    const rows = [
      await inclusionRun(svc, kind, RATE),
      await inclusionRun(svc, kind, RATE, { mode: 'witnessed' }),
    ];
    const maxRps = await maxThroughput(svc, kind);
    const of = ` (${Math.round(LOAD_SHARE * 100)} % of ${maxRps} req/s)`;
    for (const mode of ['proof', 'witnessed'] as const) {
      rows.push({ ...(await inclusionRun(svc, kind, LOAD_SHARE * maxRps, { of, mode })), maxRps });
    }
    return rows;
  } finally {
    await svc.server.stop();
    await Promise.all(witnesses.map((w) => w.stop()));
  }
}

function printRows(rows: InclusionRow[]): void {
  const ms = (n: number | undefined, digits = 0) => (n === undefined ? '' : n.toFixed(digits));
  console.log(
    '| run | receipts | checkpoints seen | answer to proof, or request to witnessed answer, p50 / p95 / p99 / max (ms) | answer p50 / p99 (ms) | not in a checkpoint, or not witnessed | machine CPU ms/receipt | service CPU ms/receipt | PostgreSQL CPU ms/receipt |',
  );
  console.log('| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const latency = `${ms(r.p50)} / ${ms(r.p95)} / ${ms(r.p99)} / ${ms(r.max)}`;
    console.log(
      `| ${r.label} | ${r.receipts} | ${r.checkpoints} | ${latency} | ${ms(r.answerP50)} / ${ms(r.answerP99)} | ${r.missing} | ${ms(r.machineCpuMs, 3)} | ${ms(r.serviceCpuMs, 3)} | ${ms(r.databaseCpuMs, 3)} |`,
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

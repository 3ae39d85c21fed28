/**
 * The service as built (`node dist/server.js`, default logging) under autocannon (and, for the
 * paced run, bench/paced-load.mjs), beside a bare Fastify route: each in its own process, the
 * load generator in a third, all in one run, so the ratio to the bare route means the same from
 * run to run.
 *   npm run bench:verify   (BENCH_CONNECTIONS=50 BENCH_SECONDS=10 BENCH_RATE=200
 *                           BENCH_PACED_CONNECTIONS=8: most keep-alive connections of the paced run,
 *                           BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test
 *                           BENCH_CPU_PROF=dir: write a CPU profile of each service process
 *                             (its whole life: per request, count the cold run's requests too),
 *                           BENCH_HEAP_PROF=dir: the same, a sampling heap profile,
 *                           BENCH_NODE_FLAGS='--flag ...': node flags of the service,
 *                           BENCH_SERVICE_LOG=file: append the service's log (each request's
 *                             responseTime, seals) to file, to find the slow ones,
 *                           BENCH_STORES=embedded,postgres: the stores to run,
 *                           BENCH_RUNS=verify,paced,get,tile: the runs of each store,
 *                           BENCH_REPEAT=3: rounds, then the median of each figure,
 *                           BENCH_WARMUP_SECONDS=10: the first load on each fresh process, kept
 *                             in its own "cold" row; 0 measures the fresh process,
 *                           BENCH_JSON=file: write every round's rows to file as JSON)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { StoreConfig } from '../src/config.js';
import { postmasterPids } from './cpu.js';
import { load, printMedians, printTable, type Figures } from './harness.js';
import { startBareRoute } from './processes.js';
import { SEALING_EVERY_5S } from './sealer-run.js';
import { WORKERS, dropStore, freshStore, startBenchService, type BenchService } from './service.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
/**
 * The paced run sends one request every 1/RATE s (bench/paced-load.mjs) over at most this many
 * keep-alive connections; a request due while all are busy waits, and its wait counts. (Not
 * autocannon -R, which sends each connection's quota for the second back to back and then idles:
 * bursts, not a pace.)
 */
const PACED_CONNECTIONS = Number(process.env.BENCH_PACED_CONNECTIONS ?? 8);
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** A directory: write a sampling heap profile (allocation sites) of each service process. */
const HEAP_PROF = process.env.BENCH_HEAP_PROF;
/** Lets the bench read the service's event-loop lag and GC time from /metrics. */
const METRICS_TOKEN = randomBytes(16).toString('hex');
/** Which stores to run, comma-separated (default both): BENCH_STORES=postgres */
const STORES = (process.env.BENCH_STORES ?? 'embedded,postgres').split(',');
/** Rounds of the whole sequence; with more than one, medians are printed too (BENCH_REPEAT). */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
/**
 * Each process is first loaded for this long at full speed, and that run is reported in a row
 * of its own (", cold"): the other runs measure the process warmed. A fresh service is still
 * being compiled by V8 during its first load: on a host whose bare route takes 10,000-19,000
 * req/s, the same 10 s of POST /verify take 2.0-2.2 ms of service CPU per request on a fresh
 * process and 1.0-1.2 ms on the next 10 s. The bare route warms within a fraction of a second.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
/**
 * Which runs, comma-separated (default all; for profiling one):
 * BENCH_RUNS=verify,paced,get,tile,sealer (`sealer`: the embedded store's POST /verify again on
 * a fresh service that seals every 5 s only, bench/sealer-run.ts)
 */
const RUNS = (process.env.BENCH_RUNS ?? 'verify,paced,get,tile,sealer').split(',');

/**
 * The bare route at full speed (the ceiling the ratios divide by) and, with the paced run, paced:
 * the floor of the paced latency, what the generator, loopback and an empty route add.
 */
async function bare(): Promise<Figures[]> {
  const server = await startBareRoute();
  try {
    const opts = {
      url: server.url,
      method: 'POST' as const,
      body: '{"a":1}',
      path: '/bare',
      seconds: SECONDS,
      serverPid: server.child.pid,
    };
    const full = { ...opts, connections: CONNECTIONS };
    const cold = await warmUp('bare Fastify POST route', full);
    // the cold row was measured first but is listed second: the ratios divide by row 0
    const rows = [await load('bare Fastify POST route', full), ...cold];
    if (RUNS.includes('paced')) {
      const name = `bare Fastify POST route, paced ${RATE} req/s`;
      rows.push(await load(name, { ...opts, rate: RATE, connections: PACED_CONNECTIONS }));
    }
    return rows;
  } finally {
    await server.stop();
  }
}

/**
 * The first WARMUP_SECONDS of full-speed load on a fresh process, as a row named `<name>, cold`
 * (none when BENCH_WARMUP_SECONDS=0).
 */
async function warmUp(name: string, opts: Parameters<typeof load>[1]): Promise<Figures[]> {
  if (WARMUP_SECONDS <= 0) return [];
  return [
    await load(`${name}, cold (first ${WARMUP_SECONDS} s of a fresh process)`, {
      ...opts,
      seconds: WARMUP_SECONDS,
    }),
  ];
}

/**
 * The service's environment: the quiet-log cadence every 5 s (production default 60 s), for full
 * tiles, and the default batching window (SEAL_BATCH_MS 250: a seal whenever entries are pending)
 * unless BENCH_SEAL_BATCH_MS sets another (0: only the 5 s cadence).
 */
function benchEnv(): Record<string, string> {
  return {
    ANCHOR_INTERVAL_MS: process.env.BENCH_ANCHOR_MS ?? '5000',
    ...(process.env.BENCH_SEAL_BATCH_MS ? { SEAL_BATCH_MS: process.env.BENCH_SEAL_BATCH_MS } : {}),
    DATABASE_POOL_MAX: '20',
    METRICS_TOKEN,
  };
}

async function until(ready: () => Promise<boolean>, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the log sealed no full tile in time');
}

/** load()'s options, which every run of one store shares but its path. */
type Common = Parameters<typeof load>[1];

/** Each run of one store, by its BENCH_RUNS name, on the running service. */
function storeRuns(label: string, svc: BenchService, common: Omit<Common, 'path'>) {
  const post = { ...common, path: '/api/v1/verify', method: 'POST' as const, body: svc.body };
  const runs: Record<string, () => Promise<Figures>> = {
    verify: () => load(`POST /verify, ${label}`, post),
    paced: () =>
      load(`POST /verify, ${label}, paced ${RATE} req/s`, {
        ...post,
        rate: RATE,
        connections: PACED_CONNECTIONS,
      }),
    get: async () => {
      const one = await fetch(`${svc.server.url}/api/v1/verify`, {
        method: 'POST',
        headers: { ...common.headers, 'content-type': 'application/json' },
        body: svc.body,
      });
      const { receiptId } = (await one.json()) as { receiptId: string };
      return load(`GET /receipt/{id}, ${label}`, {
        ...common,
        path: `/api/v1/receipt/${receiptId}`,
      });
    },
    // a full tile exists once 256 receipts were sealed (the verify run issues them)
    tile: async () => {
      await until(async () => (await fetch(`${svc.server.url}/log/tile/0/000`)).ok, 30_000);
      return load(`GET /log/tile/0/000 (full tile, no key), ${label}`, {
        ...common,
        headers: {},
        path: '/log/tile/0/000',
      });
    },
  };
  return { post, runs };
}

async function runStore(label: string, store: StoreConfig): Promise<Figures[]> {
  const profile = [
    ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(CPU_PROF, label)}`] : []),
    ...(HEAP_PROF ? ['--heap-prof', `--heap-prof-dir=${path.join(HEAP_PROF, label)}`] : []),
  ];
  const svc = await startBenchService(store, {
    scopes: ['verify', 'read'],
    env: benchEnv(),
    nodeArgs: profile,
    ...(process.env.BENCH_SERVICE_LOG ? { log: process.env.BENCH_SERVICE_LOG } : {}),
  });
  const wal =
    store.kind === 'postgres' ? new pg.Client({ connectionString: store.url }) : undefined;
  // a lost connection fails the next WAL read (and the run), not the whole process at once
  wal?.on('error', (err) => console.error(`WAL position connection: ${err.message}`));
  await wal?.connect();
  const { post, runs } = storeRuns(label, svc, {
    url: svc.server.url,
    headers: { 'x-api-key': svc.token },
    connections: CONNECTIONS,
    seconds: SECONDS,
    serverPid: svc.server.child.pid,
    metrics: { url: `${svc.server.url}/metrics`, token: METRICS_TOKEN },
    walPosition: wal && (() => walPosition(wal)),
    databasePids: store.kind === 'postgres' ? postmasterPids() : undefined,
  });
  try {
    const figures = await warmUp(`POST /verify, ${label}`, post);
    for (const name of RUNS) {
      if (name === 'sealer') continue;
      const run = runs[name];
      if (!run) throw new Error(`unknown run ${name}`);
      figures.push(await run());
    }
    return figures;
  } finally {
    await wal?.end();
    await svc.server.stop();
  }
}

/**
 * The embedded store's POST /verify on a fresh service that seals every 5 s only (SEAL_BATCH_MS
 * 0), warmed as the main run is (its cold run not reported): beside the main run, what sealing
 * as entries arrive costs the issuances.
 */
async function sealerRun(): Promise<Figures[]> {
  const store = freshStore('embedded');
  try {
    const svc = await startBenchService(store, {
      scopes: ['verify', 'read'],
      env: { ...benchEnv(), SEAL_BATCH_MS: '0' },
    });
    try {
      const { post } = storeRuns('embedded', svc, {
        url: svc.server.url,
        headers: { 'x-api-key': svc.token },
        connections: CONNECTIONS,
        seconds: SECONDS,
        serverPid: svc.server.child.pid,
        metrics: { url: `${svc.server.url}/metrics`, token: METRICS_TOKEN },
      });
      await warmUp(SEALING_EVERY_5S, post);
      return [await load(SEALING_EVERY_5S, post)];
    } finally {
      await svc.server.stop();
    }
  } finally {
    await dropStore(store);
  }
}

/** The database server's write-ahead log position, in bytes from its start. */
async function walPosition(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(
    "select pg_current_wal_lsn() - '0/0'::pg_lsn as bytes",
  );
  return Number(rows[0]!.bytes);
}

/** One round: the bare route, then each store's runs on a fresh store. */
async function round(): Promise<Figures[]> {
  const rows = await bare();
  if (STORES.includes('embedded')) {
    const embedded = freshStore('embedded');
    try {
      rows.push(...(await runStore('embedded', embedded)));
    } finally {
      await dropStore(embedded);
    }
    if (RUNS.includes('sealer')) rows.push(...(await sealerRun()));
  }
  if (STORES.includes('postgres')) {
    const pg = freshStore('postgres');
    try {
      rows.push(...(await runStore('PostgreSQL', pg)));
    } catch (err) {
      console.error(`PostgreSQL run skipped: ${(err as Error).message}`);
    } finally {
      await dropStore(pg);
    }
  }
  return rows;
}

const rounds: Figures[][] = [];
for (let n = 1; n <= REPEAT; n += 1) {
  const rows = await round();
  rounds.push(rows);
  console.log(
    `\nround ${n} of ${REPEAT}: ${CONNECTIONS} connections, ${SECONDS} s per run, node ${process.version}, PostgreSQL with WORKERS=${WORKERS}`,
  );
  printTable(rows, rows[0]!);
}
if (REPEAT > 1) printMedians(rounds);
// every round's rows, for bench/goals.ts (BENCH_JSON=file)
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(rounds));

/**
 * Integration latency: receipts issued at a steady rate against the service as built
 * (`node dist/server.js`, default sealer settings), and for each the time from its issuance
 * answer to the first signed checkpoint that covers it, as a client polling the public
 * checkpoint sees it. The service runs in its own process; this process paces the requests and
 * watches the checkpoint.
 *   npm run bench:inclusion   (BENCH_RATE=200 receipts/s, BENCH_SECONDS=10,
 *                              BENCH_STORES=embedded,postgres (default embedded),
 *                              BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test,
 *                              BENCH_WORKERS=auto: the service's WORKERS on PostgreSQL)
 *
 * Method: a request is sent every 1/BENCH_RATE s (not waiting for the previous answer); the
 * moment each answer arrives is kept with its receipt id. Meanwhile GET /log/checkpoint is read
 * every 10 ms and the first moment each tree size is seen is kept. After the run, each
 * receipt's log index comes from POST /api/v1/anchor/{id}; its inclusion latency is the first
 * moment a checkpoint of size > index was seen, minus its answer's moment (so it includes up to
 * 10 ms of polling).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { StoreConfig } from '../src/config.js';
import { openDatabase } from '../src/storage/database.js';
import { createRepositories } from '../src/storage/repositories.js';
import { closeStore, ed25519Pem, tempDir } from '../test/helpers/context.js';
import { registerNotary, validRequest } from '../test/helpers/ron.js';
import { ROOT, startService } from './processes.js';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const STORES = (process.env.BENCH_STORES ?? 'embedded').split(',');
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WORKERS = process.env.BENCH_WORKERS ?? 'auto';
const POLL_MS = 10;

interface Issued {
  receiptId: string;
  answeredAt: number;
  sentAt: number;
}

async function seed(store: StoreConfig) {
  const db = await openDatabase(store);
  try {
    const repos = createRepositories(db);
    const { token } = await repos.apiKeys.create({
      tenant: 'bench',
      name: 'bench',
      scopes: ['verify', 'read', 'anchor'],
    });
    return { token, notary: await registerNotary(repos, 'bench') };
  } finally {
    await db.close();
  }
}

/** The service with its default sealer settings (SEAL_BATCH_MS, ANCHOR_INTERVAL_MS unset). */
function serviceEnv(store: StoreConfig): Record<string, string> {
  const env: Record<string, string> = {
    DATA_DIR: store.kind === 'embedded' ? (store.dataDir ?? tempDir('bench-')) : tempDir('bench-'),
    SIGNING_KEY: ed25519Pem(),
    RATE_LIMIT_MAX: '1000000000',
    LOG_RATE_LIMIT_MAX: '1000000000',
    SCREENING_LISTS_DIR: path.join(ROOT, 'screening-lists'),
  };
  if (store.kind === 'postgres') {
    env.WORKERS = WORKERS;
    env.DATABASE_URL = store.url;
    env.DATABASE_SCHEMA = store.schema ?? 'public';
  }
  return env;
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

/** Sends one issuance every 1/RATE s for SECONDS; resolves with every answer's moment. */
async function paced(url: string, token: string, body: string): Promise<Issued[]> {
  const issued: Issued[] = [];
  const sends: Promise<void>[] = [];
  const start = performance.now();
  const total = Math.round(RATE * SECONDS);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sentAt = performance.now();
    sends.push(
      fetch(`${url}/api/v1/verify`, {
        method: 'POST',
        headers: { 'x-api-key': token, 'content-type': 'application/json' },
        body,
      }).then(async (res) => {
        const answeredAt = performance.now();
        const json = (await res.json()) as { receiptId?: string };
        if (res.ok && json.receiptId)
          issued.push({ receiptId: json.receiptId, answeredAt, sentAt });
      }),
    );
  }
  await Promise.all(sends);
  return issued;
}

async function logIndexOf(url: string, token: string, receiptId: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/anchor/${receiptId}`, {
    method: 'POST',
    headers: { 'x-api-key': token },
  });
  const state = (await res.json()) as { status: string; logIndex?: number };
  return state.status === 'ANCHORED' && state.logIndex !== undefined ? state.logIndex : -1;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function runStore(label: string, store: StoreConfig) {
  const { token, notary } = await seed(store);
  const server = await startService(serviceEnv(store));
  try {
    const body = JSON.stringify(validRequest(notary));
    const watcher = watchCheckpoint(server.url);
    const issued = await paced(server.url, token, body);
    // let the last receipts be sealed (the quiet-log interval is 60 s; a seal follows at once)
    await new Promise((r) => setTimeout(r, 3_000));
    await watcher.stop();
    const latencies: number[] = [];
    const answers: number[] = [];
    let missing = 0;
    for (const r of issued) {
      const index = await logIndexOf(server.url, token, r.receiptId);
      const cover = watcher.seen.find((c) => c.size > index);
      answers.push(r.answeredAt - r.sentAt);
      if (index < 0 || !cover) missing += 1;
      else latencies.push(Math.max(0, cover.at - r.answeredAt));
    }
    latencies.sort((a, b) => a - b);
    answers.sort((a, b) => a - b);
    const ms = (n: number) => n.toFixed(0);
    return {
      label,
      receipts: issued.length,
      checkpoints: watcher.seen.length,
      p50: ms(quantile(latencies, 0.5)),
      p99: ms(quantile(latencies, 0.99)),
      max: ms(latencies.at(-1) ?? NaN),
      answerP50: ms(quantile(answers, 0.5)),
      answerP99: ms(quantile(answers, 0.99)),
      missing,
    };
  } finally {
    await server.stop();
  }
}

const rows = [];
for (const kind of STORES) {
  const store: StoreConfig =
    kind === 'postgres'
      ? {
          kind: 'postgres',
          url: PG_URL,
          schema: `bench_${randomBytes(4).toString('hex')}`,
          poolMax: 10,
        }
      : { kind: 'embedded', dataDir: tempDir('bench-') };
  try {
    rows.push(await runStore(`${kind}, paced ${RATE} receipts/s, ${SECONDS} s`, store));
  } finally {
    if (store.kind === 'embedded') fs.rmSync(store.dataDir ?? '', { recursive: true, force: true });
    else await closeStore(await openDatabase(store, { migrate: false }), store);
  }
}
console.log(
  '| run | receipts | checkpoints seen | answer to proof p50 / p99 / max (ms) | answer p50 / p99 (ms) | not in a checkpoint |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(
    `| ${r.label} | ${r.receipts} | ${r.checkpoints} | ${r.p50} / ${r.p99} / ${r.max} | ${r.answerP50} / ${r.answerP99} | ${r.missing} |`,
  );
}

/**
 * POST /api/v1/verify under load (autocannon, 50 connections) on the embedded store and on
 * PostgreSQL, beside a bare Fastify route measured in the same run.
 *   npm run bench:verify            (PostgreSQL at BENCH_DATABASE_URL, default 127.0.0.1:5432/test)
 */
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import type { StoreConfig } from '../src/config.js';
import { openDatabase } from '../src/storage/database.js';
import { createRepositories } from '../src/storage/repositories.js';
import { dropSchema, tempDir, testConfig } from '../test/helpers/context.js';
import { registerNotary, validRequest } from '../test/helpers/ron.js';
import { load, printTable, type Figures } from './harness.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function bare(): Promise<Figures> {
  const app = Fastify({ logger: false });
  app.post('/bare', async () => ({ ok: true }));
  try {
    return await load('bare Fastify POST route', app, {
      path: '/bare',
      method: 'POST',
      body: '{"a":1}',
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
  } finally {
    await app.close();
  }
}

async function verify(name: string, store: StoreConfig): Promise<Figures> {
  const config = testConfig({ RATE_LIMIT_MAX: '100000000' }, store);
  const db = await openDatabase(store);
  const repos = createRepositories(db);
  const { token } = await repos.apiKeys.create({
    tenant: 'bench',
    name: 'bench',
    scopes: ['verify'],
  });
  const notary = await registerNotary(repos, 'bench');
  const app = await buildApp({ config, db, logger: false });
  try {
    const body = JSON.stringify(validRequest(notary));
    const figures = await load(name, app, {
      path: '/api/v1/verify',
      method: 'POST',
      body,
      headers: { 'x-api-key': token },
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    const stored = Number((await db.knex('receipts').count({ n: '*' }).first())?.n);
    console.log(
      `${name}: ${stored} receipts stored, ${figures.requests - figures.non2xx} acknowledged inside the window (requests in flight when it closed complete too)`,
    );
    return figures;
  } finally {
    await app.close();
    await dropSchema(db, store);
    await db.close();
  }
}

const baseline = await bare();
const rows = [baseline];
rows.push(
  await verify('POST /verify, embedded store (PGlite on disk)', {
    kind: 'embedded',
    dataDir: tempDir('bench-'),
  }),
);
try {
  rows.push(
    await verify('POST /verify, PostgreSQL', {
      kind: 'postgres',
      url: PG_URL,
      schema: `bench_${randomBytes(4).toString('hex')}`,
      poolMax: 20,
    }),
  );
} catch (err) {
  console.error(`PostgreSQL run skipped: ${(err as Error).message}`);
}
console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run, node ${process.version}`);
printTable(rows, baseline);

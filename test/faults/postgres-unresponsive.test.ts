import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type StoreConfig } from '../../src/config.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import {
  captureKnexWarnings,
  eventually,
  postgresFaultsEnabled,
  SilentProxy,
  sleep,
} from './helpers.js';

/**
 * PostgreSQL that stops answering without closing anything (network partition, hung server):
 * the service should still answer every request in bounded time, with 503, never 500.
 *
 * Two guards make that hold: pg's connect timeout and query_timeout
 * (DATABASE_QUERY_TIMEOUT_MS) bound every wait, and src/storage/unavailable.ts maps both
 * timeouts to 503 dependency_unavailable.
 */
const BOUND_MS = 12_000;
/** DATABASE_QUERY_TIMEOUT_MS for this file: a stalled query must answer well before 10 s. */
const QUERY_TIMEOUT_MS = 1_500;

interface Timed {
  status: number | 'no answer';
  ms: number;
}

let ctx: TestContext;
let proxy: SilentProxy;
let key: string;
let warnings: string[];
const list = async (): Promise<Timed> => {
  const started = Date.now();
  const answer = ctx.app
    .inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } })
    .then((res) => res.statusCode);
  const status = await Promise.race([answer, sleep(BOUND_MS).then(() => 'no answer' as const)]);
  return { status, ms: Date.now() - started };
};

beforeAll(async () => {
  if (!postgresFaultsEnabled()) return;
  const url = new URL(process.env.DATABASE_URL ?? '');
  proxy = new SilentProxy(url.hostname, Number(url.port || 5432));
  await proxy.start();
  url.host = `127.0.0.1:${proxy.port}`;
  // The store configuration as the server reads it from the environment.
  const store = loadConfig({
    DATABASE_URL: url.toString(),
    DATABASE_SCHEMA: `f_${randomBytes(5).toString('hex')}`,
    DATABASE_POOL_MAX: '4',
    DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
  }).store as StoreConfig;
  ctx = await createTestContext({}, store);
  warnings = captureKnexWarnings(ctx.db.knex);
  key = await ctx.apiKey(['read']);
  expect((await list()).status).toBe(200);
});
afterAll(async () => {
  if (!postgresFaultsEnabled()) return;
  proxy.thaw();
  await ctx.close();
  await proxy.stop();
});

describe.runIf(postgresFaultsEnabled())('PostgreSQL that stops answering', () => {
  it('new connections that never complete: 503 within the bound', async () => {
    proxy.silence({ dropExisting: true }); // pooled connections are cut; every query needs a new one
    try {
      const answers = await Promise.all(Array.from({ length: 4 }, list));
      console.log(`silent store, fresh connections: ${JSON.stringify(answers)}`);
      for (const a of answers) {
        expect(a.status).toBe(503);
        expect(a.ms).toBeLessThan(BOUND_MS);
      }
    } finally {
      proxy.thaw();
    }
  });

  it('recovers by itself once the store answers again', async () => {
    const recovery = await eventually(
      async () => ((await list()).status === 200 ? true : undefined),
      15_000,
    );
    console.log(`recovered after ${recovery.ms} ms; ${warnings.length} knex warnings so far`);
  });

  it('a query in flight when the store goes silent: answered within the bound', async () => {
    // make sure the pool holds an open connection, then silence it mid-conversation
    expect((await list()).status).toBe(200);
    proxy.silence();
    try {
      const answer = await list();
      console.log(`silent store, pooled connection: ${JSON.stringify(answer)}`);
      expect(answer.status).toBe(503);
      // DATABASE_QUERY_TIMEOUT_MS bounds the wait, not the 10 s default.
      expect(answer.ms).toBeLessThan(QUERY_TIMEOUT_MS + 3_000);
    } finally {
      proxy.thaw(); // the stuck query completes now: the request is answered late
    }
  });
});

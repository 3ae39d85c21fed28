import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createRepositories, type Repositories } from '../../src/storage/repositories.js';
import { dropSchema, isPostgres, testConfig, testStore } from '../helpers/context.js';
import { registerNotary, validRequest } from '../helpers/ron.js';

/**
 * API keys and notaries are cached in process. A change takes effect at once on the replica
 * that made it and, through PostgreSQL LISTEN/NOTIFY, within a second on every other replica.
 * On PostgreSQL the two apps below are two replicas (two pools, two listeners) on one database;
 * on the embedded store (one process by design) they share the one handle.
 */
const store = testStore();
const config = testConfig({}, store);
let dbA: Database;
let dbB: Database;
let appA: FastifyInstance;
let appB: FastifyInstance;
let reposB: Repositories;

beforeAll(async () => {
  dbA = await openDatabase(store);
  dbB = isPostgres() ? await openDatabase(store) : dbA;
  appA = await buildApp({ config, db: dbA, logger: false });
  appB = await buildApp({ config, db: dbB, logger: false });
  reposB = createRepositories(dbB);
});
afterAll(async () => {
  await appA.close();
  await appB.close();
  await dropSchema(dbA, store);
  if (dbB !== dbA) await dbB.close();
  await dbA.close();
});

/** Polls `check` until true, for at most `ms`; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

describe('in-process caches', () => {
  it('a key revoked on one replica is refused by the other within a second', async () => {
    const { record, token } = await reposB.apiKeys.create({
      tenant: 'cache',
      name: 'cache test',
      scopes: ['read'],
    });
    const list = (app: FastifyInstance) =>
      app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': token } });
    expect((await list(appA)).statusCode).toBe(200); // now cached on A
    expect((await list(appB)).statusCode).toBe(200);
    await reposB.apiKeys.revoke(record.id);
    expect((await list(appB)).statusCode).toBe(401); // at once where it was revoked
    await within(1_000, async () => (await list(appA)).statusCode === 401);
  });

  it('a notary removed on one replica stops verifying seals on the other', async () => {
    const notary = await registerNotary(reposB, 'cache');
    const { token } = await reposB.apiKeys.create({
      tenant: 'cache',
      name: 'issuer',
      scopes: ['verify'],
    });
    const verify = async (app: FastifyInstance) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/verify',
          headers: { 'x-api-key': token },
          payload: validRequest(notary),
        })
      ).json().reasons as string[];
    expect(await verify(appA)).not.toContain('notary_not_registered'); // cached on A
    await reposB.notaries.remove('cache', notary.id);
    expect(await verify(appB)).toContain('notary_not_registered');
    await within(1_000, async () => (await verify(appA)).includes('notary_not_registered'));
  });
});

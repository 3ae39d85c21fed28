import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createRepositories, type Repositories } from '../../src/storage/repositories.js';
import { closeStore, ed25519Pem, isPostgres, testConfig, testStore } from '../helpers/context.js';
import { issuerHeaders, registerIssuer, revokeVia } from '../helpers/revocation.js';
import { registerNotary, validRequest } from '../helpers/ron.js';

/**
 * API keys, notaries and receipts (read by id) are cached in process. A change takes effect at once on the replica
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
  if (dbB !== dbA) await dbB.close();
  await closeStore(dbA, store);
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

  interface ReceiptView {
    status: string;
    anchor: { status: string };
    revocation: { status: string };
  }

  /** A receipt of `tenant` issued through replica A, and how to read it through either. */
  async function issuedThroughA(tenant: string) {
    const notary = await registerNotary(reposB, tenant);
    const { token } = await reposB.apiKeys.create({
      tenant,
      name: 'all',
      scopes: ['verify', 'read', 'revoke'],
    });
    const issued = await appA.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': token },
      payload: validRequest(notary),
    });
    const { receiptId } = issued.json<{ receiptId: string }>();
    const read = async (app: FastifyInstance) =>
      (
        await app.inject({ url: `/api/v1/receipt/${receiptId}`, headers: { 'x-api-key': token } })
      ).json<ReceiptView>();
    return { token, receiptId, read };
  }

  it('a receipt sealed or revoked through one replica reads so on the other within a second', async () => {
    const { token, receiptId, read } = await issuedThroughA('cache-r');
    const issuerPem = ed25519Pem();
    await registerIssuer(reposB, issuerPem, 'cache-r');
    expect((await read(appA)).anchor.status).toBe('PENDING'); // now cached on both
    expect((await read(appB)).anchor.status).toBe('PENDING');

    await appB.services.anchoring.sealAll();
    expect((await read(appB)).anchor.status).toBe('ANCHORED'); // at once where it was sealed
    await within(1_000, async () => (await read(appA)).anchor.status === 'ANCHORED');

    expect((await revokeVia(appB, token, receiptId, issuerPem)).statusCode).toBe(200);
    expect((await read(appB)).revocation.status).toBe('REVOKED');
    await within(1_000, async () => (await read(appA)).revocation.status === 'REVOKED');
    expect((await read(appA)).status).toBe('revoked');
  });

  it('a receipt row changed by hand (SQL) is read as changed', async () => {
    const { receiptId, read } = await issuedThroughA('cache-s');
    expect((await read(appA)).status).toBe('clean'); // cached
    await dbB.knex('receipts').where({ id: receiptId }).update({ revoked_at: new Date() });
    await within(1_000, async () => (await read(appA)).status === 'revoked');
  });

  it('a seal or a revocation drops only the cached receipts it changed', async () => {
    const { read, receiptId } = await issuedThroughA('cache-g');
    await appB.services.anchoring.sealAll();
    expect((await read(appA)).anchor.status).toBe('ANCHORED'); // cached on A, anchored
    const other = await issuedThroughA('cache-g2');
    const issuerPem = ed25519Pem();
    await registerIssuer(reposB, issuerPem, 'cache-g2', 'escrow-g');
    await within(1_000, async () => (await other.read(appA)).anchor.status === 'PENDING');
    // read again now that the seal's notice has reached A: a read that a notice overtakes is
    // not cached, so the first read may not have been
    expect((await read(appA)).anchor.status).toBe('ANCHORED');
    // changed by hand with triggers off: only a dropped cache entry can show this
    await dbB.knex.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      await trx('receipts').where({ id: receiptId }).update({ revoked_at: new Date() });
    });
    await appB.services.anchoring.sealAll();
    const revoked = await appB.inject({
      method: 'POST',
      url: `/api/v1/receipt/${other.receiptId}/revoke`,
      headers: {
        'x-api-key': other.token,
        ...issuerHeaders(issuerPem, other.receiptId, 'escrow-g'),
      },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await within(1_000, async () => {
      const view = await other.read(appA);
      return view.anchor.status === 'ANCHORED' && view.revocation.status === 'REVOKED';
    });
    expect((await read(appA)).status).toBe('clean'); // kept through both changes
  });
});

import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { StoreConfig } from '../../src/config.js';
import { LIMITS } from '../../src/contract/limits.js';
import { openDatabase } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, embeddedLeg, ed25519Pem, tempDir, testConfig } from '../helpers/context.js';
import { minimalRequest } from '../helpers/requests.js';
import { SAMPLE_LISTS_DIR } from '../helpers/ron.js';
import { spawnServer } from '../helpers/server-process.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { call, eventually, faultStore, freePort, postgresFaultsEnabled, sleep } from './helpers.js';

/**
 * `kill -9` of the server while receipts are issued and their webhooks sent: afterwards every
 * receipt the store holds (every acknowledged one among them) has its `receipt.issued` event,
 * and is delivered by the next process; no event names a receipt the store does not hold.
 * On the embedded store (normal suite) and on PostgreSQL (fault suite).
 */
const CONCURRENCY = 12;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

function storeEnv(store: StoreConfig, dataDir: string): Record<string, string> {
  if (store.kind === 'embedded') return { DATA_DIR: dataDir };
  return { DATA_DIR: dataDir, DATABASE_URL: store.url, DATABASE_SCHEMA: store.schema ?? '' };
}

async function killBetweenChangeAndDelivery(store: StoreConfig): Promise<void> {
  const dataDir = store.kind === 'embedded' ? (store.dataDir ?? '') : tempDir('faults-hooks-');
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  // the server first migrates the store; the subscription is made once it has
  const port = await freePort();
  const signingKey = ed25519Pem();
  const env = {
    LOG_LEVEL: 'warn',
    SIGNING_KEY: signingKey,
    SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR,
    RATE_LIMIT_MAX: '1000000',
    ANCHOR_INTERVAL_MS: '0',
    WEBHOOK_DELIVERY_INTERVAL_MS: '20',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    ...storeEnv(store, dataDir),
  };
  const setup = await openDatabase(store);
  const repos = createRepositories(setup);
  const { token } = await repos.apiKeys.create({
    tenant: 'tenant-a',
    name: 'kill -9 webhooks',
    scopes: ['verify', 'read', 'webhooks'],
  });
  await repos.webhooks.createSubscription(
    {
      id: randomUUID(),
      tenant: 'tenant-a',
      url: receiver.url,
      eventTypes: ['receipt.issued'],
      schemes: ['v1a'],
      secret: null,
    },
    LIMITS.webhookSubscriptions,
  );
  await setup.close(); // one process at a time on PGlite

  const server = spawnServer(port, env);
  const { child, exited, baseUrl } = server;
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
      return (await call(baseUrl, 'GET', '/readyz', {}, undefined, 1_000)).status === 200
        ? true
        : undefined;
    },
    45_000,
    200,
  );
  const acknowledged: string[] = [];
  let killed = false;
  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      const res = await call(
        baseUrl,
        'POST',
        '/api/v1/verify',
        { 'x-api-key': token },
        minimalRequest({ bundleId: `kill-${w}-${i}` }),
      );
      if (res.status === 200)
        acknowledged.push((JSON.parse(res.body) as { receiptId: string }).receiptId);
    }
  };
  const load = Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  // some events delivered, others committed but not yet sent when the process dies
  await eventually(
    async () => (acknowledged.length >= 40 && receiver.received.length >= 5 ? true : undefined),
    60_000,
    20,
  );
  child.kill('SIGKILL');
  killed = true;
  expect((await exited).signal).toBe('SIGKILL');
  await load;
  await sleep(100);
  const beforeRestart = receiver.received.length;

  // the next process (this one), its clock past the dead one's leases
  const config = testConfig(
    { ...env, DATA_DIR: dataDir, WEBHOOK_DELIVERY_INTERVAL_MS: '0' },
    store,
  );
  const db = await openDatabase(store);
  const app = await buildApp({ config, db, logger: false });
  try {
    const later = () => new Date(Date.now() + 3_600_000);
    const dispatcher = app.services.webhooks.dispatcher({ clock: later });
    for (let i = 0; i < 50 && (await app.repos.webhooks.pendingStats()).pending > 0; i++)
      await dispatcher.runOnce();
    expect((await app.repos.webhooks.pendingStats()).pending).toBe(0);
    expect(receiver.received.length).toBeGreaterThan(beforeRestart);

    const stored = (await db.knex('receipts').select('id')) as { id: string }[];
    const storedIds = new Set(stored.map((r) => r.id));
    const delivered = new Map<string, string>(); // receipt id -> webhook-id
    for (const r of receiver.received) {
      const body = JSON.parse(r.body) as { type: string; data: { receiptId: string } };
      expect(body.type).toBe('receipt.issued');
      // nothing invented: every event names a stored receipt, always under one webhook-id
      expect(storedIds.has(body.data.receiptId)).toBe(true);
      const id = r.headers['webhook-id']!;
      expect(delivered.get(body.data.receiptId) ?? id).toBe(id);
      delivered.set(body.data.receiptId, id);
    }
    // nothing lost: every stored receipt, every acknowledged one among them, was delivered
    for (const id of acknowledged) expect(storedIds.has(id)).toBe(true);
    expect([...storedIds].filter((id) => !delivered.has(id))).toEqual([]);
  } finally {
    await app.close();
    await closeStore(db, store);
  }
}

describe('kill -9 between a change and its webhook loses no event and invents none', () => {
  it.runIf(embeddedLeg())(
    'embedded store',
    async () => {
      await killBetweenChangeAndDelivery({
        kind: 'embedded',
        dataDir: tempDir('faults-hooks-embedded-'),
      });
    },
    120_000,
  );

  it.runIf(postgresFaultsEnabled())(
    'PostgreSQL',
    async () => {
      await killBetweenChangeAndDelivery(faultStore('webhooks'));
    },
    120_000,
  );
});

import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { StoreConfig } from '../../src/config.js';
import { LIMITS } from '../../src/contract/limits.js';
import { openDatabase } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, embeddedLeg, ed25519Pem, tempDir, testConfig } from '../helpers/context.js';
import { minimalRequest, samplePdf, sha256Hex } from '../helpers/requests.js';
import { issuerHeaders, registerIssuer } from '../helpers/revocation.js';
import { SAMPLE_LISTS_DIR } from '../helpers/ron.js';
import { spawnServer } from '../helpers/server-process.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { call, eventually, faultStore, freePort, postgresFaultsEnabled, sleep } from './helpers.js';
import { changesOf, receivedEvents } from './webhooks-kill-changes.js';

/**
 * `kill -9` of the server while receipts are issued, revoked and sealed and their webhooks sent:
 * afterwards every change the store holds (every acknowledged one among them) has its event,
 * one `webhook-id` each, delivered by the next process; no event names a change the store does
 * not hold (a revocation or a seal cut off by the kill). The last revocation and the last seal
 * commit while the receiver has stopped answering, just before the kill, so their events can
 * only arrive after the restart. On the embedded store (normal suite) and on PostgreSQL (fault
 * suite).
 */
const ISSUERS = 10;
const REVOKERS = 2;
const EVENT_TYPES = ['receipt.issued', 'receipt.revoked', 'receipt.anchored'] as const;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

function storeEnv(store: StoreConfig, dataDir: string): Record<string, string> {
  if (store.kind === 'embedded') return { DATA_DIR: dataDir };
  return { DATA_DIR: dataDir, DATABASE_URL: store.url, DATABASE_SCHEMA: store.schema ?? '' };
}

/** The tenant's key, its registered revoker's key, and its subscription to `EVENT_TYPES`. */
async function setUp(store: StoreConfig, url: string) {
  const setup = await openDatabase(store);
  const repos = createRepositories(setup);
  const { token } = await repos.apiKeys.create({
    tenant: 'tenant-a',
    name: 'kill -9 webhooks',
    scopes: ['verify', 'read', 'revoke', 'anchor', 'webhooks'],
  });
  const issuerPem = ed25519Pem();
  await registerIssuer(repos, issuerPem);
  await repos.webhooks.createSubscription(
    {
      id: randomUUID(),
      tenant: 'tenant-a',
      url,
      eventTypes: [...EVENT_TYPES],
      schemes: ['v1a'],
      secret: null,
    },
    LIMITS.webhookSubscriptions,
  );
  await setup.close(); // one process at a time on PGlite
  return { token, issuerPem };
}

async function killBetweenChangeAndDelivery(store: StoreConfig): Promise<void> {
  const dataDir = store.kind === 'embedded' ? (store.dataDir ?? '') : tempDir('faults-hooks-');
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  // the server first migrates the store; the subscription is made once it has
  const port = await freePort();
  const env = {
    LOG_LEVEL: 'warn',
    SIGNING_KEY: ed25519Pem(),
    SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR,
    RATE_LIMIT_MAX: '1000000',
    ANCHOR_INTERVAL_MS: '200',
    WEBHOOK_DELIVERY_INTERVAL_MS: '20',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    ...storeEnv(store, dataDir),
  };
  const { token, issuerPem } = await setUp(store, receiver.url);

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
  const key = { 'x-api-key': token };
  // the document itself, so each receipt has a log entry for the sealer to place
  const pdf = samplePdf();
  const doc = { docHash: `sha256:${sha256Hex(pdf)}`, pdfBase64: pdf.toString('base64') };
  const issued: string[] = [];
  const revoked: string[] = [];
  let toRevoke = 0;
  let killed = false;
  const issue = async (bundleId: string) => {
    const res = await call(
      baseUrl,
      'POST',
      '/api/v1/verify',
      key,
      minimalRequest({ bundleId, doc }),
    );
    if (res.status !== 200) return undefined;
    const { receiptId } = JSON.parse(res.body) as { receiptId: string };
    issued.push(receiptId);
    return receiptId;
  };
  /** Revokes the oldest issued receipt not yet taken; its id once acknowledged. */
  const revokeNext = async () => {
    const id = issued[toRevoke];
    if (id === undefined) return undefined;
    toRevoke++;
    const headers = { ...key, ...issuerHeaders(issuerPem, id) };
    const res = await call(baseUrl, 'POST', `/api/v1/receipt/${id}/revoke`, headers, {});
    if (res.status !== 200) return undefined;
    revoked.push(id);
    return id;
  };
  const issuer = async (w: number) => {
    for (let i = 0; !killed; i++) await issue(`kill-${w}-${i}`);
  };
  const revoker = async () => {
    while (!killed) if ((await revokeNext()) === undefined) await sleep(20);
  };
  const load = Promise.all([
    ...Array.from({ length: ISSUERS }, (_, w) => issuer(w)),
    ...Array.from({ length: REVOKERS }, () => revoker()),
  ]);
  // some events delivered, others committed but not yet sent
  await eventually(
    async () =>
      issued.length >= 40 && revoked.length >= 5 && receiver.received.length >= 5
        ? true
        : undefined,
    60_000,
    20,
  );
  // the last changes: a revocation and a seal that commit once the receiver stops answering
  receiver.mode = 'hang';
  let lastRevoked: string | undefined;
  while (lastRevoked === undefined) lastRevoked = await revokeNext();
  const lastIssued = await issue('kill-last');
  expect(lastIssued).toBeDefined();
  await eventually(
    async () => {
      const res = await call(baseUrl, 'POST', `/api/v1/anchor/${lastIssued}`, key);
      return (JSON.parse(res.body) as { status?: string }).status === 'ANCHORED' ? true : undefined;
    },
    30_000,
    20,
  );
  child.kill('SIGKILL');
  killed = true;
  expect((await exited).signal).toBe('SIGKILL');
  await load;
  await sleep(100);
  const beforeRestart = receiver.received.length;
  receiver.mode = 'ok';

  // the next process (this one), its clock past the dead one's leases, sealing nothing more
  const config = testConfig(
    { ...env, DATA_DIR: dataDir, WEBHOOK_DELIVERY_INTERVAL_MS: '0', ANCHOR_INTERVAL_MS: '0' },
    store,
  );
  const db = await openDatabase(store);
  const app = await buildApp({ config, db, logger: false });
  try {
    const later = () => new Date(Date.now() + 3_600_000);
    const dispatcher = app.services.webhooks.dispatcher({ clock: later });
    for (let i = 0; i < 500 && (await app.repos.webhooks.pendingStats()).pending > 0; i++)
      await dispatcher.runOnce();
    expect((await app.repos.webhooks.pendingStats()).pending).toBe(0);

    const changes = await changesOf(db.knex);
    const events = receivedEvents(receiver.received);
    // nothing invented, nothing lost: one webhook-id per committed change, each delivered
    expect(events.sent).toEqual(changes);
    expect(events.delivered).toEqual(changes);
    // every acknowledged change committed
    for (const id of issued) expect(changes.has(`receipt.issued ${id}`)).toBe(true);
    for (const id of revoked) expect(changes.has(`receipt.revoked ${id}`)).toBe(true);
    // the changes of the last moment arrive after the restart, once per webhook-id
    const after = receivedEvents(receiver.received.slice(beforeRestart));
    expect(after.duplicates).toEqual([]);
    expect(after.delivered.has(`receipt.revoked ${lastRevoked}`)).toBe(true);
    expect(after.delivered.has(`receipt.anchored ${lastIssued}`)).toBe(true);
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

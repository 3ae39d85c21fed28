import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { awaitLogEntry } from '../../src/receipts/await-log-entry.js';
import { createServices } from '../../src/services.js';
import { ChangeFeed } from '../../src/storage/change-feed.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { LogRepository } from '../../src/storage/log.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, isPostgres, testConfig, testStore } from '../helpers/context.js';
import { sleep, until } from '../helpers/until.js';
import { ciRequest } from './hostile/requests.js';

/**
 * `Prefer: wait` with the receipt cache off (every read of a receipt reaches the store): the
 * waiters are woken by the store's seal notices, so while nothing is sealed they send the store
 * nothing, and a seal costs one read for all of them plus one read per waiter it completes. The
 * seal is made by another replica: on PostgreSQL a second pool whose seal reaches this one
 * through LISTEN/NOTIFY only; on the embedded store (one process) a log repository whose own
 * announcements go nowhere, so the waiters learn of it from PGlite's notification alone.
 */
const store = testStore();
// the webhook dispatcher runs (the default): with nothing pending it sends the store nothing
const config = testConfig({ RECEIPT_CACHE_MAX: '0' }, store);
let db: Database;
let other: Database | undefined;
let app: FastifyInstance;
let key: string;
/** Every statement this replica's pool sends, and the waiters' own reads by kind. */
const sent = { statements: 0, finds: 0, probes: 0 };

beforeAll(async () => {
  db = await openDatabase(store);
  app = await buildApp({ config, db, logger: false });
  await app.ready();
  key = (await app.repos.apiKeys.create({ tenant: 'waiters', name: 'waiters', scopes: ['verify'] }))
    .token;
  db.knex.on('query', () => (sent.statements += 1));
  const receipts = app.repos.receipts;
  const find = receipts.find.bind(receipts);
  const sealedAmong = receipts.sealedAmong.bind(receipts);
  receipts.find = (...args) => ((sent.finds += 1), find(...args));
  receipts.sealedAmong = (...args) => ((sent.probes += 1), sealedAmong(...args));
}, 120_000);
afterAll(async () => {
  await app?.close();
  await other?.close();
  if (db) await closeStore(db, store);
});

/** Seals everything pending from outside this replica's process state (see the file's note). */
async function sealElsewhere(): Promise<number> {
  if (isPostgres()) other ??= await openDatabase(store, { migrate: false });
  const repos = other
    ? createRepositories(other)
    : {
        ...createRepositories(db),
        log: new LogRepository(db.knex, new ChangeFeed(db.knex, 'embedded')),
      };
  const services = await createServices(config, repos, { loadScreening: false });
  return (await services.anchoring.sealAll()).sealed;
}

async function issue(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/verifications/ci',
        headers: { 'x-api-key': key },
        payload: ciRequest(),
      }),
    );
    for (const res of await Promise.all(batch)) {
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().receiptId as string);
    }
  }
  return ids;
}

const reset = () => Object.assign(sent, { statements: 0, finds: 0, probes: 0 });
const wait = (id: string, ms: number) =>
  awaitLogEntry(app.services.receipts, app.services.logWaiters, 'waiters', id, ms);

describe('Prefer: wait shares the seal notices', () => {
  it('200 waiters send the store nothing while they wait, and a seal costs one read for all', async () => {
    const ids = await issue(200);
    reset();
    const answers = Promise.all(ids.map((id) => wait(id, 10_000)));
    // each waiter's first look: one read each, sent once the pool has a connection for it
    await until(() => sent.finds >= 200 && sent.statements >= 200, 10_000);
    reset();
    await sleep(1_500);
    // polling every 50 ms would have been 200 x 30 reads by now
    expect(sent).toEqual({ statements: 0, finds: 0, probes: 0 });
    expect(app.services.logWaiters.size).toBe(200);
    expect(await sealElsewhere()).toBeGreaterThanOrEqual(200);
    const done = await answers;
    for (const answer of done) {
      expect(answer.logEntry?.inclusionProof).toEqual(expect.any(Array));
      expect(answer.record.anchor.leafIndex).not.toBeNull();
    }
    // one probe per notice (a second when a notice arrives during the first), one look per waiter
    expect(sent.probes).toBeGreaterThanOrEqual(1);
    expect(sent.probes).toBeLessThanOrEqual(3);
    expect(sent.finds).toBe(200);
    // and each completed waiter's bundle (its proof and checkpoint: a few reads, once), plus, on
    // the embedded store, the seal's own statements on the one connection
    expect(sent.statements).toBeLessThanOrEqual(200 * 5 + 50);
    expect(app.services.logWaiters.size).toBe(0);
  });

  it('a wait that runs out ends on its deadline with no logEntry, having read once', async () => {
    const [id] = await issue(1);
    reset();
    const started = Date.now();
    const answer = await wait(id!, 1_000);
    // Node's timers may fire a millisecond before Date.now() says the time has passed
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000 - 2);
    expect(answer.logEntry).toBeUndefined();
    expect(answer.record.anchor.leafIndex).toBeNull();
    expect(sent).toEqual({ statements: 1, finds: 1, probes: 0 });
  });

  it('while seal notices may be missed, one shared read a second for all waiters', async () => {
    const ids = await issue(50);
    db.changes.live = false; // as while the LISTEN connection is down
    try {
      reset();
      const answers = Promise.all(ids.map((id) => wait(id, 2_500)));
      await answers;
      expect(sent.finds).toBe(50);
      expect(sent.probes).toBeGreaterThanOrEqual(1);
      expect(sent.probes).toBeLessThanOrEqual(3);
      expect(sent.statements).toBe(sent.finds + sent.probes);
    } finally {
      db.changes.live = true;
    }
  });
});

describe.runIf(isPostgres())('Prefer: wait when the LISTEN connection drops', () => {
  it('a seal whose notice was lost still ends the waits, with a few shared reads', async () => {
    const ids = await issue(30);
    // the feed's own LISTEN connection (a pg Client), ended by the server as an outage would
    const feed = db.changes as unknown as { client?: { processID?: number } };
    const listener = feed.client;
    const pid = listener?.processID;
    if (pid === undefined) throw new Error('the change feed is not listening');
    reset();
    const answers = Promise.all(ids.map((id) => wait(id, 8_000)));
    await until(() => app.services.logWaiters.size === 30 && sent.finds >= 30, 30_000);
    // the feed announces its lost connection ('*', which seal notices hear); it may listen again
    // within milliseconds, so its `live` flag alone can be back before anyone looks
    let lost = false;
    const unsubscribe = app.repos.sealNotices.subscribe(() => {
      if (feed.client !== listener) lost = true;
    });
    const killer = await openDatabase(store, { migrate: false });
    try {
      await killer.knex.raw('select pg_terminate_backend(?)', [pid]);
      await until(() => lost, 30_000);
    } finally {
      unsubscribe();
      await killer.close();
    }
    expect(await sealElsewhere()).toBeGreaterThanOrEqual(30); // its NOTIFY reaches no one here
    const done = await answers;
    for (const answer of done) expect(answer.logEntry).toBeDefined();
    expect(sent.finds).toBe(60);
    expect(sent.probes).toBeLessThanOrEqual(6);
    await until(() => db.changes.live, 30_000); // listening again
  });
});

describe('the seal notices of the change feed', () => {
  it('come for a seal, a change to positions and a reconnect, not for one receipt', () => {
    const heard: number[] = [];
    let n = 0;
    const stop = app.repos.sealNotices.subscribe(() => heard.push(n));
    const announce = (table: Parameters<Database['changes']['announce']>[0], detail?: string) => {
      n += 1;
      db.changes.announce(table, detail);
    };
    announce('receipts', 'sealed'); // 1: a seal
    announce('receipts'); // 2: positions rewritten or deleted
    announce('*'); // 3: the listener reconnected, changes may have been missed
    announce('receipts', '00000000-0000-4000-8000-000000000000'); // a revocation
    announce('api_keys');
    expect(heard).toEqual([1, 2, 3]);
    stop();
    announce('receipts', 'sealed');
    expect(heard).toEqual([1, 2, 3]);
    expect(app.repos.sealNotices.live).toBe(db.changes.live);
  });
});

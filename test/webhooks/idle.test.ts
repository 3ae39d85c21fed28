import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { closeStore, isPostgres, testConfig, testStore } from '../helpers/context.js';
import { sleep, until } from '../helpers/until.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * The dispatcher costs the store nothing while no delivery is pending: it sleeps until the
 * store's delivery notices wake it or the next retry falls due. One replica takes the API's
 * requests and sends nothing; another sends, with WEBHOOK_DELIVERY_INTERVAL_MS at 50 ms (a
 * dispatcher polling at that interval would send 20 statements a second). On PostgreSQL each
 * has a pool of its own and the sender hears of new deliveries through LISTEN/NOTIFY only; on
 * the embedded store (one process) they share a handle and PGlite's in-process notifications,
 * and the API replica is quiet while statements are counted.
 */
const store = testStore();
const allow = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };
let dbs: Database[];
let api: FastifyInstance;
let sender: FastifyInstance;
let receiver: Receiver;
let key: string;
/** Every statement the sending replica's pool sends. */
let statements = 0;

beforeAll(async () => {
  const first = await openDatabase(store);
  const second = isPostgres() ? await openDatabase(store) : first;
  dbs = [first, second];
  api = await buildApp({
    config: testConfig({ ...allow, WEBHOOK_DELIVERY_INTERVAL_MS: '0' }, store),
    db: first,
    logger: false,
  });
  sender = await buildApp({
    config: testConfig({ ...allow, WEBHOOK_DELIVERY_INTERVAL_MS: '50' }, store),
    db: second,
    logger: false,
  });
  await Promise.all([api.ready(), sender.ready()]);
  second.knex.on('query', () => (statements += 1));
  receiver = await startReceiver();
  key = (await api.repos.apiKeys.create({ tenant: 'idle', name: 'idle', scopes: ['webhooks'] }))
    .token;
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await sender?.close();
  await api?.close();
  if (dbs[1] !== dbs[0]) await dbs[1]!.close();
  await closeStore(dbs[0]!, store);
});

/** Statements the sender sends over a second of quiet (after what was under way has settled). */
async function quietSecond(): Promise<number> {
  await sleep(300);
  statements = 0;
  await sleep(1_000);
  return statements;
}

async function testEvent(subscription: string): Promise<void> {
  const res = await api.inject({
    method: 'POST',
    url: `/api/v1/webhooks/${subscription}/test`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(202);
}

describe('an idle dispatcher', () => {
  let subscription: string;

  it('sends the store nothing while there is no subscription', async () => {
    expect(await quietSecond()).toBe(0);
  });

  it('sends nothing while subscriptions exist but no delivery is pending', async () => {
    const res = await api.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { 'x-api-key': key },
      payload: { url: receiver.url, eventTypes: ['receipt.issued'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    subscription = res.json().id;
    expect(await quietSecond()).toBe(0);
  });

  it("is woken by another replica's new delivery, sends it, and is quiet again", async () => {
    statements = 0;
    await testEvent(subscription);
    await until(() => receiver.received.length === 1);
    // claim, body, outcome and the question of the next due time: a handful, not a poll
    await until(async () => {
      const [d] = (await api.repos.webhooks.listDeliveries(subscription, 1, undefined)).items;
      return d?.state === 'delivered';
    });
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(20);
    expect(await quietSecond()).toBe(0);
  });

  it('sleeps until a failed delivery is due again, then sends it', async () => {
    receiver.mode = 'error';
    await testEvent(subscription);
    await until(() => receiver.received.length === 2);
    receiver.mode = 'ok';
    // the retry is 5 to 5.5 s away: nothing is asked of the store meanwhile
    expect(await quietSecond()).toBe(0);
    expect(receiver.received).toHaveLength(2);
    await until(() => receiver.received.length === 3, 10_000);
    expect(receiver.received[2]!.headers['webhook-id']).toBe(
      receiver.received[1]!.headers['webhook-id'],
    );
    expect(await quietSecond()).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { closeStore, isPostgres, testConfig, testStore } from '../helpers/context.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import type { WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { WEBHOOK_SLOTS } from '../../src/services.js';
import { IN_FLIGHT_CAPS } from '../../src/webhooks/dispatcher.js';
import { sleep, until } from '../helpers/until.js';

/**
 * Two replicas on one store send each delivery once per attempt: the lease (a conditional update
 * with `for update skip locked`) gives each due delivery to one of them. On PostgreSQL the two
 * replicas have pools of their own; the embedded store (one process) shares one handle.
 */

const store = testStore();
const env = { WEBHOOK_DELIVERY_INTERVAL_MS: '0', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };
let dbs: Database[];
let apps: FastifyInstance[];
let receiver: Receiver;
let key: string;

beforeAll(async () => {
  const first = await openDatabase(store);
  const second = isPostgres() ? await openDatabase(store) : first;
  dbs = [first, second];
  apps = [];
  for (const db of dbs) {
    const app = await buildApp({ config: testConfig(env, store), db, logger: false });
    await app.ready();
    apps.push(app);
  }
  receiver = await startReceiver();
  key = (
    await apps[0]!.repos.apiKeys.create({
      tenant: 'tenant-a',
      name: 'replicas',
      scopes: ['webhooks'],
    })
  ).token;
});
afterAll(async () => {
  await receiver.close();
  for (const app of apps) await app.close();
  if (dbs[1] !== dbs[0]) await dbs[1]!.close();
  await closeStore(dbs[0]!, store);
});

async function testEvents(n: number): Promise<string> {
  const res = await apps[0]!.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { 'x-api-key': key },
    payload: { url: receiver.url, eventTypes: ['receipt.issued'], schemes: ['v1a'] },
  });
  const id = res.json().id as string;
  for (let i = 0; i < n; i++) {
    const test = await apps[i % 2]!.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${id}/test`,
      headers: { 'x-api-key': key },
    });
    expect(test.statusCode).toBe(202);
  }
  return id;
}

/** Both replicas' dispatchers, run at once until neither finds anything due. */
async function runBoth(dispatchers: WebhookDispatcher[]): Promise<number[]> {
  return Promise.all(
    dispatchers.map(async (d) => {
      let claimed = 0;
      for (let idle = 0; idle < 2;) {
        const n = await d.runOnce();
        claimed += n;
        idle = n === 0 ? idle + 1 : 0;
      }
      return claimed;
    }),
  );
}

describe('two replicas on one store', () => {
  it('deliver each event once', async () => {
    receiver.received.length = 0;
    receiver.mode = 'ok';
    const n = 3 * WEBHOOK_SLOTS;
    await testEvents(n);
    // one subscription takes every slot of both here: the caps are another test's subject
    const caps = { perSubscription: n, perTenant: n };
    const [first, second] = apps.map((a) => a.services.webhooks.dispatcher({ caps }));
    // the first replica's claim is in flight (leased, unanswered) when the second claims
    receiver.delayMs = 1_000;
    const arrivedBefore = receiver.arrived;
    const firstBatch = first!.runOnce();
    await until(() => receiver.arrived - arrivedBefore >= WEBHOOK_SLOTS);
    receiver.delayMs = 0;
    const [a, b] = await Promise.all([firstBatch, second!.runOnce()]);
    expect([a, b]).toEqual([WEBHOOK_SLOTS, WEBHOOK_SLOTS]);
    const rest = await runBoth([first!, second!]);
    expect(a! + b! + rest[0]! + rest[1]!).toBe(n);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(n);
  });

  it("count each other's open attempts against a subscription's cap", async () => {
    receiver.received.length = 0;
    receiver.mode = 'ok';
    const subscription = await testEvents(10);
    const [first, second] = apps.map((a) => a.services.webhooks.dispatcher());
    receiver.delayMs = 1_000;
    const arrivedBefore = receiver.arrived;
    const firstClaim = first!.runOnce();
    await until(() => receiver.arrived - arrivedBefore >= IN_FLIGHT_CAPS.perSubscription);
    // the first replica's attempts are open: the second finds the subscription at its cap
    expect(await second!.runOnce()).toBe(0);
    receiver.delayMs = 0;
    expect(await firstClaim).toBe(IN_FLIGHT_CAPS.perSubscription);
    const rest = await runBoth([first!, second!]);
    expect(IN_FLIGHT_CAPS.perSubscription + rest[0]! + rest[1]!).toBe(10);
    const { items } = await apps[0]!.repos.webhooks.listDeliveries(subscription, 20, undefined);
    expect(items.map((d) => d.state)).toEqual(Array(10).fill('delivered'));
  });

  it('attempt each failing delivery once per due time', async () => {
    receiver.received.length = 0;
    receiver.mode = 'error';
    const subscription = await testEvents(30);
    let now = Date.now();
    const dispatchers = apps.map((a) =>
      a.services.webhooks.dispatcher({ clock: () => new Date(now) }),
    );
    for (let round = 0; round < 3; round++) {
      await runBoth(dispatchers);
      now += 3 * 3_600_000; // past every retry up to the fourth
    }
    const { items } = await apps[0]!.repos.webhooks.listDeliveries(subscription, 200, undefined);
    expect(items).toHaveLength(30);
    const perId = new Map<string, number>();
    for (const r of receiver.received)
      perId.set(r.headers['webhook-id']!, (perId.get(r.headers['webhook-id']!) ?? 0) + 1);
    for (const d of items) {
      expect(d.attempts).toBe(3);
      expect(perId.get(d.eventId)).toBe(3);
    }
  });
});

describe('a replica that dies holding a lease', () => {
  it('leaves the delivery to a sleeping replica, which wakes when the lease ends', async () => {
    receiver.received.length = 0;
    receiver.mode = 'ok';
    const subscription = await testEvents(1);
    // the dead replica's claim: leased for 5 s, never sent, never recorded
    const now = new Date();
    const [claim] = await apps[0]!.repos.webhooks.claimDue(
      now,
      new Date(now.getTime() + 5_000),
      1,
      IN_FLIGHT_CAPS,
    );
    expect(claim?.subscription.id).toBe(subscription);
    // a replica that runs its dispatcher starts: nothing is due until the lease ends
    const db = isPostgres() ? await openDatabase(store, { migrate: false }) : dbs[0]!;
    const config = testConfig({ ...env, WEBHOOK_DELIVERY_INTERVAL_MS: '50' }, store);
    const waking = await buildApp({ config, db, logger: false });
    try {
      await waking.ready();
      let statements = 0;
      db.knex.on('query', () => (statements += 1));
      await sleep(300);
      statements = 0;
      await sleep(1_000);
      // asleep until the lease's end, not polling for it
      expect(statements).toBe(0);
      expect(receiver.received).toHaveLength(0);
      await until(() => receiver.received.length === 1, 10_000);
      expect(receiver.received[0]!.headers['webhook-id']).toBe(claim!.event.id);
      expect(Date.now()).toBeGreaterThanOrEqual(now.getTime() + 5_000);
    } finally {
      await waking.close();
      if (db !== dbs[0]) await db.close();
    }
  });
});

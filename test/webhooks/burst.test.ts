import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { LIMITS } from '../../src/contract/limits.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { IN_FLIGHT_CAPS } from '../../src/webhooks/dispatcher.js';
import { closeStore, testConfig, testStore } from '../helpers/context.js';
import { until } from '../helpers/until.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * A backlog to one subscription, larger than its cap of open attempts, goes out as fast as the
 * receiver answers: each attempt's end claims the next at once, whatever
 * WEBHOOK_DELIVERY_INTERVAL_MS says (here a minute, so rounds spaced by it would deliver one
 * cap's worth and then nothing within the test's wait). The backlog is recorded before the
 * replica starts, whose first round takes the first of it.
 */
const store = testStore();
const BACKLOG = 3 * IN_FLIGHT_CAPS.perSubscription + 1;
let db: Database;
let app: FastifyInstance;
let receiver: Receiver;
let subscription: string;

beforeAll(async () => {
  receiver = await startReceiver();
  db = await openDatabase(store);
  const repos = createRepositories(db);
  const created = await repos.webhooks.createSubscription(
    {
      id: randomUUID(),
      tenant: 'burst',
      url: receiver.url,
      eventTypes: ['receipt.issued'],
      schemes: ['v1a'],
      secret: null,
    },
    LIMITS.webhookSubscriptions,
  );
  subscription = created!.id;
  for (let i = 0; i < BACKLOG; i++)
    await repos.webhooks.recordTestEvent(created!, { subscriptionId: subscription });
  const env = { WEBHOOK_DELIVERY_INTERVAL_MS: '60000', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };
  app = await buildApp({ config: testConfig(env, store), db, logger: false });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await app?.close();
  await closeStore(db, store);
});

describe('a backlog to one subscription', () => {
  it('is sent a cap at a time, each end claiming the next, not a cap per interval', async () => {
    await until(() => receiver.received.length >= BACKLOG);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(BACKLOG);
    await until(async () => {
      const { items } = await app.repos.webhooks.listDeliveries(subscription, 100, undefined);
      return items.every((d) => d.state === 'delivered');
    });
  });
});

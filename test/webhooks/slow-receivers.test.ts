import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LIMITS } from '../../src/contract/limits.js';
import { WEBHOOK_SLOTS } from '../../src/services.js';
import { IN_FLIGHT_CAPS } from '../../src/webhooks/dispatcher.js';
import type { Subscription } from '../../src/webhooks/ports.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { until } from '../helpers/until.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * A receiver that never answers holds its own attempts and nothing else: one tenant pointing
 * its subscriptions at silent servers cannot delay another tenant's webhooks, nor one of its
 * subscriptions the others. The attempts' timeout is a minute, so a dispatcher that waited for
 * the silent attempts would deliver nothing else within the test's waits; each test asserts the
 * fast receiver's delivery is recorded while the silent receiver's attempts are still open
 * (arrived, unanswered, their outcome unrecorded), not how long anything took.
 */

let ctx: TestContext;
const receivers: Receiver[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    WEBHOOK_DELIVERY_INTERVAL_MS: '20',
    WEBHOOK_TIMEOUT_MS: '60000',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  });
});
afterAll(async () => {
  // the silent attempts end when their connections do, so the app stops at once
  for (const r of receivers) await r.close().catch(() => undefined);
  await ctx?.close();
});

async function receiver(mode: Receiver['mode']): Promise<Receiver> {
  const r = await startReceiver();
  r.mode = mode;
  receivers.push(r);
  return r;
}

async function subscribe(tenant: string, url: string): Promise<Subscription> {
  const created = await ctx.repos.webhooks.createSubscription(
    {
      id: randomUUID(),
      tenant,
      url,
      eventTypes: ['receipt.issued'],
      schemes: ['v1a'],
      secret: null,
    },
    LIMITS.webhookSubscriptions,
  );
  expect(created).toBeDefined();
  return created!;
}

async function events(subscription: Subscription, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await ctx.repos.webhooks.recordTestEvent(subscription, { subscriptionId: subscription.id });
}

async function deliveries(subscription: Subscription) {
  return (await ctx.repos.webhooks.listDeliveries(subscription.id, 100, undefined)).items;
}

/** Every delivery of the subscriptions is still in its first attempt: sent, not answered. */
async function allOpen(subscriptions: Subscription[]): Promise<number> {
  let open = 0;
  for (const s of subscriptions)
    for (const d of await deliveries(s)) {
      expect(d).toMatchObject({ state: 'pending', attempts: 0, lastAttemptAt: null });
      open++;
    }
  return open;
}

/**
 * After the test, its subscriptions are removed, then the silent receiver is closed: its
 * attempts end, freeing their slots for the next test whatever this one came to.
 */
function releaseAfter(silent: Receiver, subscriptions: Subscription[]): void {
  onTestFinished(async () => {
    for (const s of subscriptions) await ctx.repos.webhooks.deleteSubscription(s.tenant, s.id);
    await silent.close();
  });
}

describe('a receiver that never answers', () => {
  it("does not hold back another tenant's delivery", async () => {
    const silent = await receiver('hang');
    const fast = await receiver('ok');
    const a = await subscribe('slow-a', silent.url);
    const b = await subscribe('fast-b', fast.url);
    releaseAfter(silent, [a]);
    await events(a, 1);
    await until(() => silent.arrived === 1);
    await events(b, 1);
    await until(async () => (await deliveries(b))[0]?.state === 'delivered');
    expect(fast.received).toHaveLength(1);
    // tenant A's attempt is still open: sent, unanswered, its outcome not yet recorded
    expect(await allOpen([a])).toBe(1);
    expect(silent.arrived).toBe(1);
  });

  it("of a tenant with many subscriptions fills no more than the tenant's share of the slots", async () => {
    const silent = await receiver('hang');
    const fast = await receiver('ok');
    // silent subscriptions with a full cap of events each: more than every slot of the dispatcher
    const { perSubscription, perTenant } = IN_FLIGHT_CAPS;
    const slow = [];
    for (let i = 0; i * perSubscription <= WEBHOOK_SLOTS; i++)
      slow.push(await subscribe('slow-c', `${silent.url}/${i}`));
    releaseAfter(silent, slow);
    for (const s of slow) await events(s, perSubscription);
    const b = await subscribe('fast-d', fast.url);
    await until(() => silent.arrived >= perTenant);
    await events(b, 1);
    await until(async () => (await deliveries(b))[0]?.state === 'delivered');
    expect(await allOpen(slow)).toBe(slow.length * perSubscription);
    expect(silent.arrived).toBeLessThanOrEqual(perTenant);
  });

  it("of one subscription does not hold back its tenant's other subscriptions", async () => {
    const silent = await receiver('hang');
    const fast = await receiver('ok');
    const { perSubscription, perTenant } = IN_FLIGHT_CAPS;
    const stuck = await subscribe('tenant-e', silent.url);
    const other = await subscribe('tenant-e', fast.url);
    releaseAfter(silent, [stuck]);
    // more events than the tenant may have open
    await events(stuck, perTenant + 2);
    await until(() => silent.arrived >= perSubscription);
    await events(other, 1);
    await until(async () => (await deliveries(other))[0]?.state === 'delivered');
    expect(await allOpen([stuck])).toBe(perTenant + 2);
    expect(silent.arrived).toBeLessThanOrEqual(perSubscription);
  });
});

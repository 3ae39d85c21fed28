import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { minimalRequest } from '../helpers/requests.js';
import { startReceiver, type Receiver, type ReceiverMode } from '../helpers/webhook-receiver.js';
import { TargetPolicy } from '../../src/webhooks/target.js';
import { MAX_ATTEMPTS } from '../../src/webhooks/schedule.js';

/**
 * A receiver that answers 500, then hangs past the timeout, then drops the connection after
 * reading, then is down for a simulated day (a fake clock drives the retry schedule): every event
 * arrives, none is lost, and every duplicate shares its webhook-id and its body.
 */

const HOUR = 3_600_000;
let ctx: TestContext;
let receiver: Receiver;
let key: string;

beforeAll(async () => {
  ctx = await createTestContext({
    WEBHOOK_DELIVERY_INTERVAL_MS: '0',
    WEBHOOK_TIMEOUT_MS: '400',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    METRICS_TOKEN: 'chaos-metrics',
  });
  receiver = await startReceiver();
  key = await ctx.apiKey(['verify', 'read', 'webhooks']);
});
afterAll(async () => {
  await receiver.close().catch(() => undefined);
  await ctx.close();
});

async function subscribe(eventTypes: string[] = ['receipt.issued']): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { 'x-api-key': key },
    payload: { url: receiver.url, eventTypes, schemes: ['v1a'] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function issue(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: minimalRequest({ bundleId: `chaos-${i}` }),
    });
    expect(res.statusCode).toBe(200);
  }
}

async function deliveries(id: string) {
  return (await ctx.repos.webhooks.listDeliveries(id, 200, undefined)).items;
}

describe('delivery through a failing receiver (fake clock)', () => {
  it('every event arrives; duplicates only under the same webhook-id and body', async () => {
    const subscription = await subscribe();
    await issue(5);
    const start = Date.now();
    let now = start;
    const dispatcher = ctx.app.services.webhooks.dispatcher({ clock: () => new Date(now) });
    const modeAt = (elapsed: number): ReceiverMode | 'down' =>
      elapsed < 1_000
        ? 'error'
        : elapsed < 60_000
          ? 'hang'
          : elapsed < 10 * 60_000
            ? 'drop'
            : elapsed < 25 * HOUR
              ? 'down'
              : 'ok';
    let isDown = false;
    for (let round = 0; round < 40; round++) {
      const mode = modeAt(now - start);
      if (mode === 'down' && !isDown) await receiver.down();
      if (mode !== 'down' && isDown) await receiver.up();
      isDown = mode === 'down';
      if (mode !== 'down') receiver.mode = mode;
      await dispatcher.runOnce();
      const pending = (await deliveries(subscription)).filter((d) => d.state === 'pending');
      if (pending.length === 0) break;
      // jump to the next due attempt
      now = Math.max(...pending.map((d) => d.nextAttemptAt!.getTime())) + 1;
    }
    const final = await deliveries(subscription);
    expect(final).toHaveLength(5);
    for (const d of final) {
      expect(d.state).toBe('delivered');
      expect(d.attempts).toBeGreaterThanOrEqual(7);
      expect(d.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS);
    }
    // every event answered 200 at least once; each id always came with the same body
    const ids = new Set(final.map((d) => d.eventId));
    const okIds = new Set(
      receiver.received.filter((r) => r.answered === 'ok').map((r) => r.headers['webhook-id']),
    );
    expect(okIds).toEqual(ids);
    const bodies = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const id = r.headers['webhook-id']!;
      expect(ids.has(id)).toBe(true);
      bodies.set(id, (bodies.get(id) ?? new Set()).add(r.body));
    }
    for (const set of bodies.values()) expect(set.size).toBe(1);
    // the drop answered nothing after reading: the receiver saw those ids twice
    expect(receiver.received.filter((r) => r.answered === 'drop').length).toBeGreaterThan(0);
    expect(receiver.received.length).toBeGreaterThan(ids.size);
  });

  it('a 410 Gone disables the subscription and fails its pending deliveries', async () => {
    receiver.received.length = 0;
    receiver.mode = 'gone';
    const subscription = await subscribe();
    await issue(2);
    await ctx.app.services.webhooks.dispatcher().runOnce();
    const res = await ctx.app.inject({
      url: `/api/v1/webhooks/${subscription}`,
      headers: { 'x-api-key': key },
    });
    expect(res.json().disabledAt).not.toBeNull();
    expect(res.json().disabledReason).toMatch(/410/);
    for (const d of await deliveries(subscription)) expect(d.state).toBe('failed');
    // a disabled subscription records no new events
    await issue(1);
    expect(await deliveries(subscription)).toHaveLength(2);
  });

  it('a redirect is a failed attempt, never followed', async () => {
    receiver.received.length = 0;
    receiver.mode = 'redirect';
    const subscription = await subscribe(['deployment.decided']);
    const test = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${subscription}/test`,
      headers: { 'x-api-key': key },
    });
    expect(test.statusCode).toBe(202);
    await ctx.app.services.webhooks.dispatcher().runOnce();
    const [d] = await deliveries(subscription);
    expect(d).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 302 });
    expect(receiver.received).toHaveLength(1);
    // redelivery from now, same webhook-id
    receiver.mode = 'ok';
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${subscription}/deliveries/${d!.id}/redeliver`,
      headers: { 'x-api-key': key },
    });
    expect(again.statusCode).toBe(202);
    await ctx.app.services.webhooks.dispatcher().runOnce();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([d!.eventId, d!.eventId]);
    expect((await deliveries(subscription))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
  });

  it('counts pending deliveries and the age of the oldest in the metrics', async () => {
    receiver.mode = 'error';
    const subscription = await subscribe(['deployment.decided']);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${subscription}/test`,
      headers: { 'x-api-key': key },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const res = await ctx.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer chaos-metrics' },
    });
    const value = (name: string) =>
      Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(res.body)?.[1] ?? NaN);
    expect(value('webhook_deliveries_pending')).toBeGreaterThanOrEqual(1);
    expect(value('webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(1);
    expect(res.body).toContain('# TYPE webhook_attempts_total counter');
  });

  it('reads at most a few KB of an answer that never ends, and gives up within the timeout', async () => {
    receiver.received.length = 0;
    receiver.mode = 'flood';
    const subscription = await subscribe(['deployment.decided']);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${subscription}/test`,
      headers: { 'x-api-key': key },
    });
    const started = performance.now();
    await ctx.app.services.webhooks.dispatcher().runOnce();
    expect(performance.now() - started).toBeLessThan(400);
    const [d] = await deliveries(subscription);
    expect(d).toMatchObject({ state: 'pending', lastStatus: 500 });
    expect(d!.lastError!.length).toBeLessThanOrEqual(512);
  });

  it('gives up on an answer whose body trickles without end when the timeout comes', async () => {
    receiver.received.length = 0;
    receiver.mode = 'trickle';
    const subscription = await subscribe(['deployment.decided']);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${subscription}/test`,
      headers: { 'x-api-key': key },
    });
    // a byte every 50 ms, for ever: only the timeout ends the attempt
    expect(await ctx.app.services.webhooks.dispatcher().runOnce()).toBe(1);
    const [d] = await deliveries(subscription);
    expect(d).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 });
    expect(d!.lastError).toMatch(/^answered 500, its body not ended within \d+ ms$/);
  });

  it('refuses at delivery a target that now resolves to a refused address (no allowance)', async () => {
    receiver.received.length = 0;
    receiver.mode = 'ok';
    const subscription = await subscribe(['deployment.decided']);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${subscription}/test`,
      headers: { 'x-api-key': key },
    });
    await ctx.app.services.webhooks.dispatcher({ targets: new TargetPolicy([]) }).runOnce();
    const [d] = await deliveries(subscription);
    expect(d).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null });
    expect(d!.lastError).toMatch(/127\.0\.0\.1 \(loopback\)/);
    expect(receiver.received).toHaveLength(0);
  });
});

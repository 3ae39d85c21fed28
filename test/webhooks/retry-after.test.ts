import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { startReceiver, type Receiver, type ReceiverMode } from '../helpers/webhook-receiver.js';
import { MAX_RETRY_AFTER_MS } from '../../src/webhooks/schedule.js';

/**
 * A real receiver answering 429 or 503 with a Retry-After, and a fake clock driving the
 * dispatcher (no jitter): the next attempt waits as long as it was asked, never less than the
 * schedule says and never more than its cap, and is sent at that time, not before.
 */

const SECOND = 1_000;
const HOUR = 3_600_000;
let ctx: TestContext;
let receiver: Receiver;
let key: string;

beforeAll(async () => {
  ctx = await createTestContext({
    WEBHOOK_DELIVERY_INTERVAL_MS: '0',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  });
  receiver = await startReceiver();
  key = await ctx.apiKey(['webhooks']);
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

/** A fresh subscription with one test event, attempted once at `t0` as the receiver says. */
async function firstAttempt(mode: ReceiverMode, retryAfter: string | undefined) {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { 'x-api-key': key },
    payload: { url: receiver.url, eventTypes: ['receipt.issued'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const subscription = created.json().id as string;
  const test = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/webhooks/${subscription}/test`,
    headers: { 'x-api-key': key },
  });
  expect(test.statusCode).toBe(202);
  receiver.mode = mode;
  receiver.retryAfter = retryAfter;
  receiver.received.length = 0;
  const t0 = Date.now() + SECOND;
  expect(await runAt(t0)).toBe(1);
  const [delivery] = (await ctx.repos.webhooks.listDeliveries(subscription, 10, undefined)).items;
  expect(delivery).toMatchObject({ state: 'pending', attempts: 1 });
  return { t0, subscription, next: delivery!.nextAttemptAt!.getTime() };
}

function runAt(time: number): Promise<number> {
  return ctx.app.services.webhooks
    .dispatcher({ clock: () => new Date(time), random: () => 0 })
    .runOnce();
}

/** Nothing is sent a second before `next`; at `next` the delivery goes, and is delivered. */
async function sentAt(subscription: string, next: number): Promise<void> {
  receiver.mode = 'ok';
  expect(await runAt(next - SECOND)).toBe(0);
  expect(receiver.received).toHaveLength(1);
  expect(await runAt(next)).toBe(1);
  expect(receiver.received).toHaveLength(2);
  const [delivery] = (await ctx.repos.webhooks.listDeliveries(subscription, 10, undefined)).items;
  expect(delivery).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 200 });
}

describe("a 429 or 503 answer's Retry-After", () => {
  it('in seconds puts the next attempt that much later than the schedule would', async () => {
    const { t0, subscription, next } = await firstAttempt('limited', '3600');
    expect(next - t0).toBe(HOUR);
    const [delivery] = (await ctx.repos.webhooks.listDeliveries(subscription, 10, undefined)).items;
    expect(delivery).toMatchObject({ lastStatus: 429 });
    await sentAt(subscription, next);
  });

  it('as an HTTP-date puts the next attempt at that date', async () => {
    const asked = new Date(Math.ceil((Date.now() + 2 * HOUR) / SECOND) * SECOND);
    const { subscription, next } = await firstAttempt('unavailable', asked.toUTCString());
    expect(next).toBe(asked.getTime());
    await sentAt(subscription, next);
  });

  it("shorter than the schedule's delay leaves the schedule's", async () => {
    const { t0, subscription, next } = await firstAttempt('unavailable', '1');
    expect(next - t0).toBe(5 * SECOND);
    await sentAt(subscription, next);
  });

  it('of a year is capped at a day: it cannot park the delivery', async () => {
    const { t0, subscription, next } = await firstAttempt('limited', String(365 * 24 * 3600));
    expect(next - t0).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(24 * HOUR);
    await sentAt(subscription, next);
  });

  it('is not read from other answers (a 500), nor when it is not a time', async () => {
    const failed = await firstAttempt('error', '3600');
    expect(failed.next - failed.t0).toBe(5 * SECOND);
    await sentAt(failed.subscription, failed.next);
    const garbled = await firstAttempt('limited', 'in a while');
    expect(garbled.next - garbled.t0).toBe(5 * SECOND);
    await sentAt(garbled.subscription, garbled.next);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { httpSender } from '../../src/webhooks/sender.js';
import { TargetPolicy } from '../../src/webhooks/target.js';

/** /api/v1/webhooks with the default configuration: no private target, tenant by tenant. */

let ctx: TestContext;
let key: string;
let keyB: string;
beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_DELIVERY_INTERVAL_MS: '0' });
  key = await ctx.apiKey(['webhooks']);
  keyB = await ctx.apiKey(['webhooks'], 'tenant-b');
});
afterAll(async () => ctx.close());

const subscribe = (url: string, apiKey = key) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { 'x-api-key': apiKey },
    payload: { url, eventTypes: ['receipt.revoked'] },
  });

describe('subscribing', () => {
  it('refuses 127.0.0.1, 10.0.0.1, 169.254.169.254 and a name resolving to loopback: 400', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'http://127.0.0.1:8080/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://localhost/hook',
      'https://[::ffff:127.0.0.1]/hook',
    ]) {
      const res = await subscribe(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      expect(res.json().details[0].path).toBe('url');
    }
    expect(
      (await ctx.app.inject({ url: '/api/v1/webhooks', headers: { 'x-api-key': key } })).json(),
    ).toEqual([]);
  });

  it('needs the webhooks scope', async () => {
    const readKey = await ctx.apiKey(['read', 'verify', 'anchor', 'revoke']);
    const res = await ctx.app.inject({
      url: '/api/v1/webhooks',
      headers: { 'x-api-key': readKey },
    });
    expect(res.statusCode).toBe(403);
  });

  it("keeps tenants apart: another tenant's subscription is a 404", async () => {
    const allowing = await createTestContext({
      WEBHOOK_DELIVERY_INTERVAL_MS: '0',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
    try {
      const a = await allowing.apiKey(['webhooks']);
      const b = await allowing.apiKey(['webhooks'], 'tenant-b');
      const created = await allowing.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { 'x-api-key': a },
        payload: { url: 'http://127.0.0.1:9/hook', eventTypes: ['receipt.issued'] },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ schemes: ['v1a'], secret: null });
      const id = created.json().id;
      const test = await allowing.app.inject({
        method: 'POST',
        url: `/api/v1/webhooks/${id}/test`,
        headers: { 'x-api-key': a },
      });
      expect(test.statusCode).toBe(202);
      const [delivery] = (
        await allowing.app.inject({
          url: `/api/v1/webhooks/${id}/deliveries`,
          headers: { 'x-api-key': a },
        })
      ).json();
      const own = await allowing.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { 'x-api-key': b },
        payload: { url: 'http://127.0.0.1:9/b', eventTypes: ['receipt.issued'] },
      });
      const ownId = own.json().id;
      const unknown = '00000000-0000-4000-8000-000000000000';
      const none = await allowing.app.inject({
        url: `/api/v1/webhooks/${unknown}`,
        headers: { 'x-api-key': b },
      });
      for (const [method, url] of [
        ['GET', `/api/v1/webhooks/${id}`],
        ['GET', `/api/v1/webhooks/${id}/deliveries`],
        ['POST', `/api/v1/webhooks/${id}/test`],
        ['POST', `/api/v1/webhooks/${id}/deliveries/${delivery.id}/redeliver`],
        // its own subscription, the other tenant's delivery
        ['POST', `/api/v1/webhooks/${ownId}/deliveries/${delivery.id}/redeliver`],
        ['DELETE', `/api/v1/webhooks/${id}`],
      ] as const) {
        const res = await allowing.app.inject({ method, url, headers: { 'x-api-key': b } });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
      // the answer for another tenant's subscription is the answer for none
      const other = await allowing.app.inject({
        url: `/api/v1/webhooks/${id}`,
        headers: { 'x-api-key': b },
      });
      expect(other.body).toBe(none.body);
      expect(
        (
          await allowing.app.inject({
            url: `/api/v1/webhooks/${id}/deliveries`,
            headers: { 'x-api-key': a },
          })
        ).json(),
      ).toMatchObject([{ id: delivery.id, state: 'pending', attempts: 0 }]);
      const gone = await allowing.app.inject({
        method: 'DELETE',
        url: `/api/v1/webhooks/${id}`,
        headers: { 'x-api-key': a },
      });
      expect(gone.statusCode, gone.body).toBe(200);
      expect(gone.json().id).toBe(id);
    } finally {
      await allowing.close();
    }
    expect(keyB).toBeTruthy();
  });

  it('answers 400 for unknown event types and schemes, never a 500', async () => {
    for (const payload of [
      { url: 'https://example.com/', eventTypes: ['receipt.exploded'] },
      { url: 'https://example.com/', eventTypes: [] },
      { url: 'https://example.com/', eventTypes: ['receipt.issued'], schemes: ['v2'] },
      { url: 42, eventTypes: ['receipt.issued'] },
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { 'x-api-key': key },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('the sender', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver.close());

  it('connects to the address it checked, never resolving the name again', async () => {
    // a name only this resolver knows: a second lookup through the system would fail
    const policy = new TargetPolicy(['127.0.0.1/32'], async (host) =>
      host === 'rebind.invalid' ? [{ address: '127.0.0.1', family: 4 }] : [],
    );
    const target = await policy.check(`http://rebind.invalid:${receiver.port}/hooks`);
    const result = await httpSender('test')(target, { 'webhook-id': 'x' }, '{}', 2_000);
    expect(result).toEqual({ status: 200, error: undefined });
    expect(receiver.received[0]?.headers.host).toBe(`rebind.invalid:${receiver.port}`);
  });

  it('times out a receiver that never answers', async () => {
    receiver.mode = 'hang';
    const target = await new TargetPolicy(['127.0.0.1/32']).check(receiver.url);
    const started = performance.now();
    const result = await httpSender('test')(target, {}, '{}', 300);
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/no answer within 300 ms/);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

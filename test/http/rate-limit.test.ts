import { afterAll, describe, expect, it, vi } from 'vitest';
import { mintToken } from '../../src/auth/api-key-token.js';
import { createTestContext, type TestContext } from '../helpers/context.js';

const contexts: TestContext[] = [];
afterAll(async () => Promise.all(contexts.map((c) => c.close())));

async function hammer(ctx: TestContext, key: string, n: number) {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ctx.app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } });
    codes.push(res.statusCode);
    if (res.statusCode === 429) {
      expect(res.json()).toMatchObject({ error: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  }
  return codes;
}

describe('rate limit per API key', () => {
  it('answers 429 rate_limited with Retry-After past the quota, per key', async () => {
    const ctx = await createTestContext({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });
    contexts.push(ctx);
    const a = await ctx.apiKey(['read']);
    const b = await ctx.apiKey(['read']);
    expect(await hammer(ctx, a, 5)).toEqual([200, 200, 200, 429, 429]);
    // another key has its own bucket
    expect(await hammer(ctx, b, 1)).toEqual([200]);
  });

  it('limits keys that do not authenticate per client address, before any key lookup', async () => {
    const ctx = await createTestContext({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });
    contexts.push(ctx);
    const lookups = vi.spyOn(ctx.app.repos.apiKeys, 'authenticate');
    const attacker = '203.0.113.7';
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) {
      // a made-up but well-formed key (a fresh key bucket each time), or no key at all
      const headers: Record<string, string> = i % 2 === 0 ? { 'x-api-key': mintToken().token } : {};
      const res = await ctx.app.inject({
        url: '/api/v1/receipts',
        headers,
        remoteAddress: attacker,
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({ error: 'rate_limited' });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes.slice(5)).toEqual(Array(35).fill(429));
    expect(lookups.mock.calls.length).toBeLessThanOrEqual(3);
    // other addresses, and valid keys from them, are not affected
    const key = await ctx.apiKey(['read']);
    const other = await ctx.app.inject({
      url: '/api/v1/receipts',
      headers: { 'x-api-key': key },
      remoteAddress: '198.51.100.1',
    });
    expect(other.statusCode).toBe(200);
  });

  it.runIf(process.env.REDIS_URL)('is shared between replicas through Redis', async () => {
    const env = {
      RATE_LIMIT_MAX: '4',
      RATE_LIMIT_WINDOW_MS: '60000',
      REDIS_URL: process.env.REDIS_URL ?? '',
    };
    const replica1 = await createTestContext(env);
    contexts.push(replica1);
    const key = await replica1.apiKey(['read']);
    // a second app on the same store and the same Redis: one limit for both
    const { buildApp } = await import('../../src/app.js');
    const replica2 = await buildApp({ config: replica1.config, db: replica1.db, logger: false });
    await replica2.ready();
    try {
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) {
        const app = i % 2 === 0 ? replica1.app : replica2;
        codes.push(
          (await app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } })).statusCode,
        );
      }
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await replica2.close();
    }
  });
});

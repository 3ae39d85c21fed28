import { afterAll, describe, expect, it } from 'vitest';
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

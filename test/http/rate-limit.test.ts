import { afterAll, describe, expect, it } from 'vitest';
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

  it('limits keys that do not authenticate per client address, one lookup by id each', async () => {
    const ctx = await createTestContext({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });
    contexts.push(ctx);
    await ctx.app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': mintToken().token } });
    let lookups = 0;
    ctx.db.knex.on('query', (q: { sql?: string }) => {
      if (q.sql?.includes('api_keys')) lookups += 1;
    });
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
    // a key id not among the active keys held in memory costs one lookup by id (a key made on
    // another replica works at once); a key-less request costs none
    expect(lookups).toBe(20);
    // other addresses, and valid keys from them, are not affected
    const key = await ctx.apiKey(['read']);
    const other = await ctx.app.inject({
      url: '/api/v1/receipts',
      headers: { 'x-api-key': key },
      remoteAddress: '198.51.100.1',
    });
    expect(other.statusCode).toBe(200);
  });

  it('a valid key from an address that sent 305 wrong ones is served (failures are limited, not the address)', async () => {
    const ctx = await createTestContext();
    contexts.push(ctx);
    const key = await ctx.apiKey(['read']);
    const address = '203.0.113.9';
    // wrong secrets under the victim's own key id, and made-up keys
    const wrongSecret = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const codes = new Set<number>();
    for (let i = 0; i < 305; i++) {
      const wrong = i % 2 === 0 ? wrongSecret : mintToken().token;
      const res = await ctx.app.inject({
        url: '/api/v1/receipts',
        headers: { 'x-api-key': wrong },
        remoteAddress: address,
      });
      codes.add(res.statusCode);
    }
    expect([...codes].sort()).toEqual([401, 429]);
    const valid = await ctx.app.inject({
      url: '/api/v1/receipts',
      headers: { 'x-api-key': key },
      remoteAddress: address,
    });
    expect(valid.statusCode, valid.body).toBe(200);
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

describe('TRUST_PROXY decides the address every per-address limit counts', () => {
  const HASH = `sha256:${'0'.repeat(64)}`;
  async function codes(ctx: TestContext, url: string, forwardedFor: string, n: number) {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await ctx.app.inject({
        url,
        remoteAddress: '10.0.0.2', // the load balancer
        headers: { 'x-forwarded-for': forwardedFor },
      });
      out.push(res.statusCode);
    }
    return out;
  }

  it('off (default): x-forwarded-for is ignored, clients behind one proxy share its limit', async () => {
    const ctx = await createTestContext({ RATE_LIMIT_MAX: '2', LOG_RATE_LIMIT_MAX: '2' });
    contexts.push(ctx);
    expect(await codes(ctx, `/status/${HASH}`, '198.51.100.1', 2)).not.toContain(429);
    expect(await codes(ctx, `/status/${HASH}`, '198.51.100.2', 1)).toEqual([429]);
  });

  it('a hop count: /status and /log count each client behind the proxy on its own', async () => {
    const ctx = await createTestContext({
      RATE_LIMIT_MAX: '2',
      LOG_RATE_LIMIT_MAX: '2',
      TRUST_PROXY: '1',
    });
    contexts.push(ctx);
    for (const url of [`/status/${HASH}`, '/log/checkpoint']) {
      expect(await codes(ctx, url, '198.51.100.1', 3)).toContain(429);
      expect(await codes(ctx, url, '198.51.100.2', 2), url).not.toContain(429);
    }
  });

  it('a CIDR list: only a proxy inside it is believed', async () => {
    const ctx = await createTestContext({ RATE_LIMIT_MAX: '1', TRUST_PROXY: '10.0.0.0/8' });
    contexts.push(ctx);
    expect(await codes(ctx, `/status/${HASH}`, '198.51.100.1', 1)).not.toContain(429);
    expect(await codes(ctx, `/status/${HASH}`, '198.51.100.2', 1)).not.toContain(429);
    const outside = await createTestContext({ RATE_LIMIT_MAX: '1', TRUST_PROXY: '192.0.2.0/24' });
    contexts.push(outside);
    expect(await codes(outside, `/status/${HASH}`, '198.51.100.1', 1)).not.toContain(429);
    expect(await codes(outside, `/status/${HASH}`, '198.51.100.2', 1)).toEqual([429]);
  });
});

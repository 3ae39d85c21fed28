import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

/** Every route without a key answers a per-address limit; the metrics token cannot be guessed at will. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_MAX: '3', METRICS_TOKEN: 'scrape-secret' });
});
afterAll(async () => ctx.close());

async function codes(url: string, address: string, n: number, headers = {}) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ctx.app.inject({ url, remoteAddress: address, headers });
    out.push(res.statusCode);
  }
  return out;
}

const PUBLIC_URLS = [
  '/readyz',
  '/healthz',
  '/.well-known/jwks.json',
  '/verify',
  '/policies',
  '/policies/ron-standard-v1',
];

describe('unauthenticated routes', () => {
  it.each(PUBLIC_URLS)('%s is limited per client address', async (url) => {
    const address = `192.0.2.${PUBLIC_URLS.indexOf(url) + 1}`;
    const got = await codes(url, address, 5);
    expect(got.slice(0, 3)).not.toContain(429);
    expect(got.slice(3)).toEqual([429, 429]);
    // another address is not affected
    expect(await codes(url, address.replace('192.0.2.', '198.51.100.'), 1)).not.toContain(429);
  });
});

describe('GET /metrics', () => {
  it('limits wrong tokens per address, and the right token is still served', async () => {
    const address = '203.0.113.50';
    const wrong = await codes('/metrics', address, 5, { authorization: 'Bearer guess' });
    expect(wrong).toEqual([401, 401, 401, 429, 429]);
    const right = await codes('/metrics', address, 1, { authorization: 'Bearer scrape-secret' });
    expect(right).toEqual([200]);
  });
});

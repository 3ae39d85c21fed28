import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

/**
 * TRUST_PROXY as a hop count: exactly that many proxies, counted from the socket, append to
 * X-Forwarded-For; the address before them is the client's. Whatever a client writes further
 * left is its own claim and never decides `request.ip` (so never escapes a per-address limit),
 * and the last proxy's own address is never taken for the client's.
 */
const contexts: TestContext[] = [];
afterAll(async () => Promise.all(contexts.map((c) => c.close())));

const HASH = `sha256:${'0'.repeat(64)}`;
const LOAD_BALANCER = '10.0.0.2';

async function limited(trustProxy: string): Promise<TestContext> {
  const ctx = await createTestContext({ RATE_LIMIT_MAX: '1', TRUST_PROXY: trustProxy });
  contexts.push(ctx);
  return ctx;
}

/** The status of one public request arriving from the load balancer with this header. */
async function statusVia(ctx: TestContext, forwardedFor: string): Promise<number> {
  const res = await ctx.app.inject({
    url: `/status/${HASH}`,
    remoteAddress: LOAD_BALANCER,
    headers: { 'x-forwarded-for': forwardedFor },
  });
  return res.statusCode;
}

describe('TRUST_PROXY hop count', () => {
  it('1 hop: an address the client put in front of its own changes nothing', async () => {
    const ctx = await limited('1');
    expect(await statusVia(ctx, '203.0.113.1, 198.51.100.1')).not.toBe(429);
    // the same client, claiming another address each time: still itself, so limited
    expect(await statusVia(ctx, '203.0.113.2, 198.51.100.1')).toBe(429);
    expect(await statusVia(ctx, '198.51.100.1')).toBe(429);
    // another client behind the same proxy has its own limit
    expect(await statusVia(ctx, '203.0.113.1, 198.51.100.2')).not.toBe(429);
  });

  it('2 hops: the address before the two proxies is the client, not the first proxy', async () => {
    const ctx = await limited('2');
    const FIRST_PROXY = '10.1.0.9';
    expect(await statusVia(ctx, `203.0.113.1, 198.51.100.1, ${FIRST_PROXY}`)).not.toBe(429);
    expect(await statusVia(ctx, `203.0.113.2, 198.51.100.1, ${FIRST_PROXY}`)).toBe(429);
    // distinct clients behind both proxies are not one client (the first proxy's address)
    expect(await statusVia(ctx, `198.51.100.2, ${FIRST_PROXY}`)).not.toBe(429);
    expect(await statusVia(ctx, `198.51.100.3, ${FIRST_PROXY}`)).not.toBe(429);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

/**
 * Only a route with a body schema parses its body: a no-body POST reads what it is sent within
 * the same limits and ignores it, and no route parses anything for a path that does not exist.
 */

let ctx: TestContext;
let key: string;

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['read']);
});
afterAll(async () => ctx.close());

const reverify = (payload: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${randomUUID()}/verify`,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload,
  });

describe('bodies of routes that take none', () => {
  it('are not parsed: text that is not JSON reaches the route, which answers for itself', async () => {
    const res = await reverify('{not json');
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error).toBe('receipt_not_found');
  });

  it('are still read within the depth limit', async () => {
    const res = await reverify('['.repeat(65) + ']'.repeat(65));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual({ limitDepth: 64 });
  });

  it('of an unknown route are never read: 404 whatever they hold', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS'] as const) {
      const res = await ctx.app.inject({
        method,
        url: '/api/v1/no-such-thing',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({
        error: 'not_found',
        message: `no route ${method} /api/v1/no-such-thing`,
      });
    }
  });
});

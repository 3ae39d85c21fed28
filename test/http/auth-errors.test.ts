import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { minimalRequest } from '../helpers/requests.js';

let ctx: TestContext;
let verifyKey: string;
let readKey: string;

beforeAll(async () => {
  ctx = await createTestContext({ BODY_LIMIT_BYTES: '65536' });
  verifyKey = await ctx.apiKey(['verify']);
  readKey = await ctx.apiKey(['read']);
});
afterAll(async () => ctx.close());

const post = (headers: Record<string, string>, payload?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });

describe('authentication comes before validation', () => {
  it('401 unauthorized without x-api-key, even with a garbage body', async () => {
    const res = await post({ 'content-type': 'application/json' }, '{not json');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('401 for an unknown, malformed or revoked key', async () => {
    const unknown = 'vrs_' + '0'.repeat(32) + '_' + 'A'.repeat(43);
    for (const key of [
      unknown,
      'not-a-key',
      verifyKey.slice(0, -1) + (verifyKey.endsWith('A') ? 'B' : 'A'),
    ]) {
      const res = await post({ 'x-api-key': key, 'content-type': 'application/json' }, '{}');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('unauthorized');
    }
    const doomed = await ctx.repos.apiKeys.create({
      tenant: 't',
      name: 'doomed',
      scopes: ['verify'],
    });
    expect(await ctx.repos.apiKeys.revoke(doomed.record.id)).toBe(true);
    const res = await post({ 'x-api-key': doomed.token, 'content-type': 'application/json' }, '{}');
    expect(res.statusCode).toBe(401);
  });

  it('403 forbidden for a key without the scope, before looking at the body', async () => {
    const res = await post(
      { 'x-api-key': readKey, 'content-type': 'application/json' },
      '{not json',
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden' });
  });

  it('400 only once the key and scope are good', async () => {
    const res = await post({ 'x-api-key': verifyKey, 'content-type': 'application/json' }, '{}');
    expect(res.statusCode).toBe(400);
  });
});

describe('bad input is a 400 ErrorResponse, never a 500', () => {
  it('lists the offending paths in details', async () => {
    const body = minimalRequest();
    const bad = {
      ...body,
      ron: { ...body.ron, commissionState: 'TEX', extra: 1 },
      unexpected: true,
    };
    const res = await post(
      { 'x-api-key': verifyKey, 'content-type': 'application/json' },
      JSON.stringify(bad),
    );
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json.error).toBe('validation_failed');
    const paths = (json.details as { path: string }[]).map((d) => d.path);
    expect(paths).toContain('ron.commissionState');
    expect(JSON.stringify(json.details)).toContain('unexpected');
    expect(JSON.stringify(json.details)).toContain('extra');
  });

  it.each([
    ['malformed JSON', 'application/json', '{"bundleId": '],
    ['a JSON array', 'application/json', '[]'],
    ['wrong content type', 'text/plain', 'hello'],
    ['form encoding', 'application/x-www-form-urlencoded', 'a=b'],
    ['JSON null', 'application/json', 'null'],
    ['prototype poisoning', 'application/json', '{"__proto__": {"x": 1}}'],
  ])('%s', async (_name, contentType, payload) => {
    const res = await post({ 'x-api-key': verifyKey, 'content-type': contentType }, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation_failed');
    expect(res.body).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('an oversize body is a 400 that names the limit', async () => {
    const res = await post(
      { 'x-api-key': verifyKey, 'content-type': 'application/json' },
      JSON.stringify({ pad: 'x'.repeat(70_000) }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_failed',
      details: { limitBytes: 65536 },
    });
  });

  it('a non-uuid receipt id is a 400', async () => {
    const res = await ctx.app.inject({
      url: '/api/v1/receipt/not-a-uuid',
      headers: { 'x-api-key': readKey },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation_failed');
  });

  it('an unknown uuid is a 404 receipt_not_found', async () => {
    const res = await ctx.app.inject({
      url: '/api/v1/receipt/1b4e28ba-2fa1-41d2-883f-0016d3cca427',
      headers: { 'x-api-key': readKey },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('receipt_not_found');
  });

  it('an unknown route is a 404 not_found ErrorResponse', async () => {
    const res = await ctx.app.inject({
      url: '/api/v1/nothing-here',
      headers: { 'x-api-key': readKey },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});

describe('public endpoints', () => {
  it('/healthz and /readyz need no key', async () => {
    expect((await ctx.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('echoes a request id', async () => {
    const res = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('replaces a request id that is too long or not plain with its own', async () => {
    for (const offered of ['a'.repeat(129), 'abc def', 'abc\u00e9', '{"x":1}', '']) {
      const res = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': offered } });
      expect(res.headers['x-request-id'], offered).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = 'A-z0.9_:'.repeat(16);
    const kept = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': longest } });
    expect(kept.headers['x-request-id']).toBe(longest);
  });
});

describe('URLs the router cannot decode', () => {
  it('are a 400 ErrorResponse, not a framework body', async () => {
    const res = await ctx.app.inject({
      url: '/api/v1/receipt/%E0%A4%A',
      headers: { 'x-api-key': readKey },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'validation_failed', message: 'malformed request URL' });
    const long = await ctx.app.inject({
      url: `/api/v1/receipt/${'a'.repeat(500)}`,
      headers: { 'x-api-key': readKey },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe('validation_failed');
  });
});

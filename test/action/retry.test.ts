import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { leaks, runAction, scriptedProxy, SHA, type Stub } from './harness.js';

/**
 * Retries against the real service: its own rate limiter (429 with Retry-After), and a proxy
 * that answers 429/503 itself before forwarding to the service. No OIDC token is requested here,
 * so each receipt is compliance_gap (ci.identity identity_unverified).
 */

// The service allows one request per API key per 3 s window. Every test uses its own key: the
// rate-limiter test spends its quota on purpose, and each proxy forwards only its key's first call.
let ctx: TestContext;
let api: string;
const stubs: Stub[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_MS: '3000' });
  api = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await Promise.all(stubs.map((stub) => stub.close()));
  await ctx?.close();
});

/** The POSTs a proxy saw (the action then also GETs the bundle and the attestation). */
const posts = (stub: Stub) => stub.requests.filter((r) => r.method === 'POST');

async function proxy(script: Parameters<typeof scriptedProxy>[1]) {
  const stub = await scriptedProxy(api, script);
  stubs.push(stub);
  return stub;
}

const unavailable = {
  status: 503,
  body: { error: 'dependency_unavailable', message: 'store unavailable' },
};

describe.concurrent('retries', () => {
  it('honours the real rate limiter: 429 with Retry-After, then a receipt', async ({ expect }) => {
    const limitedKey = await ctx.apiKey(['verify']);
    const use = await fetch(`${api}/api/v1/verifications/ci`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': limitedKey },
      body: JSON.stringify({
        externalId: 'warm-up',
        headSha: SHA,
        subject: { kind: 'workflow_run', summary: 'uses up the quota' },
        repository: { fullName: 'octo-org/widgets' },
        provenance: { eventName: 'push' },
      }),
    });
    expect(use.status).toBe(200);
    const run = await runAction({ 'api-url': api, 'api-key': limitedKey });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /HTTP 429 rate_limited: rate limit exceeded.*; retrying in [1-3]\.0 s \(Retry-After\), attempt 2 of 5/,
    );
    expect(run.outputs['receipt-status']).toBe('compliance_gap');
    expect(leaks(run, limitedKey)).toEqual([]);
  });

  it('429 with Retry-After: 1 once, then forwards', async ({ expect }) => {
    const key = await ctx.apiKey(['verify']);
    const stub = await proxy([
      { status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate_limited' } },
    ]);
    const run = await runAction({ 'api-url': stub.url, 'api-key': key });
    expect(run.code, run.stderr).toBe(0);
    expect(posts(stub)).toHaveLength(2);
    expect(run.stdout).toContain(
      'HTTP 429 rate_limited; retrying in 1.0 s (Retry-After), attempt 2 of 5',
    );
    expect(run.ms).toBeGreaterThanOrEqual(1_000);
    expect(run.outputs['receipt-status']).toBe('compliance_gap');
  });

  it('429 with an HTTP-date Retry-After', async ({ expect }) => {
    const key = await ctx.apiKey(['verify']);
    const at = new Date(Date.now() + 2_000).toUTCString();
    const stub = await proxy([{ status: 429, headers: { 'retry-after': at } }]);
    const run = await runAction({ 'api-url': stub.url, 'api-key': key });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/retrying in [0-2]\.\d s \(Retry-After\)/);
    expect(posts(stub)).toHaveLength(2);
  });

  it('503 twice: exponential backoff, then forwards', async ({ expect }) => {
    const key = await ctx.apiKey(['verify']);
    const stub = await proxy([unavailable, unavailable]);
    const run = await runAction({ 'api-url': stub.url, 'api-key': key });
    expect(run.code, run.stderr).toBe(0);
    expect(posts(stub)).toHaveLength(3);
    expect(run.stdout).toMatch(
      /HTTP 503 dependency_unavailable: store unavailable; retrying in 1\.\d s \(backoff\), attempt 2 of 5/,
    );
    expect(run.stdout).toMatch(/retrying in 2\.\d s \(backoff\), attempt 3 of 5/);
    expect(run.ms).toBeGreaterThanOrEqual(3_000);
    expect(run.outputs['receipt-status']).toBe('compliance_gap');
    // every attempt carried the same request, so the service's idempotency makes retries safe
    expect(new Set(posts(stub).map((r) => r.body)).size).toBe(1);
    expect(leaks(run, key)).toEqual([]);
  });

  it('gives up after max-attempts with the last error', async ({ expect }) => {
    const key = await ctx.apiKey(['verify']);
    const stub = await proxy([unavailable, unavailable, unavailable]);
    const run = await runAction({ 'api-url': stub.url, 'api-key': key, 'max-attempts': '2' });
    expect(run.code).toBe(2);
    expect(posts(stub)).toHaveLength(2);
    expect(run.stderr).toContain(
      'HTTP 503 dependency_unavailable: store unavailable; gave up after 2 attempt(s)',
    );
    expect(run.outputs).toEqual({});
  });
});

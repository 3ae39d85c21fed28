import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ALL_SCOPES, createTestContext, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

let ctx: TestContext;
let key: string;
let notary: Notary;

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(ALL_SCOPES);
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => ctx.close());

function csp(res: LightMyRequestResponse): Map<string, string> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, 'content-security-policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

/** The headers every response carries, whatever its status or route. */
function expectSecurityHeaders(res: LightMyRequestResponse) {
  const h = res.headers;
  expect(h['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['referrer-policy']).toBe('no-referrer');
  expect(h['cross-origin-resource-policy']).toBe('same-origin');
  expect(h['cross-origin-opener-policy']).toBe('same-origin');
  expect(h['x-permitted-cross-domain-policies']).toBe('none');
  expect(h['x-powered-by']).toBeUndefined();
  expect(csp(res).get('frame-ancestors')).toBe("'none'");
}

/** Nothing in a JSON or PDF response may load or run anything. */
function expectApiCsp(res: LightMyRequestResponse) {
  const policy = csp(res);
  expect(policy.get('default-src')).toBe("'none'");
  expect(policy.get('base-uri')).toBe("'none'");
  expect(policy.get('form-action')).toBe("'none'");
  expect(policy.has('script-src')).toBe(false);
}

describe('security headers on API responses', () => {
  it('on a 200 from an authenticated JSON route, and on its PDF rendering', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: validRequest(notary),
    });
    expect(issued.statusCode, issued.body).toBe(200);
    expectSecurityHeaders(issued);
    expectApiCsp(issued);
    // the request id still goes out next to them
    expect(issued.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const pdf = await ctx.app.inject({
      url: `/api/v1/receipt/${issued.json().receiptId}/pdf`,
      headers: { 'x-api-key': key },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expectSecurityHeaders(pdf);
    expectApiCsp(pdf);
  });

  it('on a 401 (no key), a 401 (bad key) and a 403 (missing scope)', async () => {
    const noKey = await ctx.app.inject({ method: 'POST', url: '/api/v1/verify', payload: {} });
    expect(noKey.statusCode).toBe(401);
    const badKey = await ctx.app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': 'x' } });
    expect(badKey.statusCode).toBe(401);
    const readOnly = await ctx.apiKey(['read']);
    const forbidden = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': readOnly },
      payload: {},
    });
    expect(forbidden.statusCode).toBe(403);
    for (const res of [noKey, badKey, forbidden]) {
      expect(res.json()).toHaveProperty('error');
      expectSecurityHeaders(res);
      expectApiCsp(res);
    }
  });

  it('on a 400 and on 404s (unknown route, unknown receipt)', async () => {
    const invalid = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: '{"bundleId": ',
    });
    expect(invalid.statusCode).toBe(400);
    const noRoute = await ctx.app.inject({ url: '/nothing/here' });
    expect(noRoute.statusCode).toBe(404);
    expect(noRoute.json().error).toBe('not_found');
    const noApiRoute = await ctx.app.inject({
      url: '/api/v1/nothing',
      headers: { 'x-api-key': key },
    });
    expect(noApiRoute.statusCode).toBe(404);
    const noReceipt = await ctx.app.inject({
      url: '/api/v1/receipt/1b4e28ba-2fa1-41d2-883f-0016d3cca427',
      headers: { 'x-api-key': key },
    });
    expect(noReceipt.statusCode).toBe(404);
    for (const res of [invalid, noRoute, noApiRoute, noReceipt]) {
      expectSecurityHeaders(res);
      expectApiCsp(res);
    }
  });

  it('on public routes: /healthz, /readyz, JWKS, /openapi.json', async () => {
    for (const url of ['/healthz', '/readyz', '/.well-known/jwks.json', '/openapi.json']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expectSecurityHeaders(res);
      expectApiCsp(res);
    }
    // the JWKS keeps its own caching header
    const jwks = await ctx.app.inject({ url: '/.well-known/jwks.json' });
    expect(jwks.headers['cache-control']).toBe('public, max-age=300');
  });

  it("on the verify page and its assets, with the page's own CSP", async () => {
    for (const url of ['/verify', '/verify/app.js', '/verify/app.css']) {
      const res = await ctx.app.inject({ url });
      expectSecurityHeaders(res);
      const directives = csp(res);
      expect(directives.get('script-src'), url).toBe("'self'");
      expect(directives.get('connect-src'), url).toBe("'self'");
      expect(directives.get('default-src'), url).toBe("'none'");
      expect(directives.get('frame-ancestors'), url).toBe("'none'");
    }
  });

  it('on a 429', async () => {
    // same store, a rate limit of one request per window
    const rateLimit = { ...ctx.config.rateLimit, max: 1 };
    const limited = await buildApp({
      config: { ...ctx.config, rateLimit },
      db: ctx.db,
      logger: false,
    });
    try {
      const k = await ctx.apiKey(['read']);
      await limited.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': k } });
      const res = await limited.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': k } });
      expect(res.statusCode).toBe(429);
      expect(res.json().error).toBe('rate_limited');
      expectSecurityHeaders(res);
      expectApiCsp(res);
    } finally {
      await limited.close();
    }
  });
});

describe('Swagger UI at /docs still works', () => {
  it('serves the page with a CSP that allows its own scripts, styles and fetches', async () => {
    let res = await ctx.app.inject({ url: '/docs' });
    if (res.statusCode >= 300 && res.statusCode < 400) {
      const location = String(res.headers.location);
      res = await ctx.app.inject({
        url: location.startsWith('/') ? location : `/docs/${location}`,
      });
    }
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expectSecurityHeaders(res);
    const policy = csp(res);
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toContain("'self'");
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('img-src')).toContain('data:');
    expect(policy.has('upgrade-insecure-requests')).toBe(false);

    // the page has no inline script for script-src 'self' to block: every script is a file...
    const html = res.body;
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    // ...served from /docs with the same relaxed policy
    for (const asset of assets) {
      const url = new URL(asset, 'http://localhost/docs/').pathname;
      const file = await ctx.app.inject({ url });
      expect(file.statusCode, url).toBe(200);
      expect(csp(file).get('script-src'), url).toBe("'self'");
      expect(file.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('the UI initializer and the OpenAPI document it fetches load', async () => {
    const init = await ctx.app.inject({ url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.headers['content-type']).toMatch(/javascript/);
    const json = await ctx.app.inject({ url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json().openapi).toBe('3.0.3');
  });
});

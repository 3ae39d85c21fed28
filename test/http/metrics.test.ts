import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { issueValidRon } from '../helpers/ron.js';
import { freePort } from '../helpers/witness.js';

/** Prometheus metrics: only where configured (bearer token, own port), with what operators watch. */

describe('without METRICS_TOKEN or METRICS_PORT', () => {
  it('exposes nothing', async () => {
    const ctx = await createTestContext();
    try {
      expect((await ctx.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await ctx.close();
    }
  });
});

describe('with METRICS_TOKEN and METRICS_PORT', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    ctx = await createTestContext({
      METRICS_TOKEN: 'scrape-secret',
      METRICS_PORT: String(port),
      RATE_LIMIT_MAX: '3',
    });
  });
  afterAll(async () => ctx.close());

  it('GET /metrics needs the bearer token', async () => {
    expect((await ctx.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await ctx.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer no' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('unauthorized');
  });

  it('counts requests per route and status, receipts by decision, 429s, and reads the sealer lag', async () => {
    const key = await ctx.apiKey(['verify']);
    const issued = await issueValidRon(ctx, key);
    expect(issued.statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      await ctx.app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } });
    }
    const res = await ctx.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(
      /http_requests_total\{method="POST",route="\/api\/v1\/verify",status="200"\} 1/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="[0-9.]+",method="POST",route="\/api\/v1\/verify"/,
    );
    expect(text).toContain('receipts_issued_total{decision="ALLOW"} 1');
    expect(text).toMatch(/rate_limit_rejections_total\{bucket="api"\} [1-9]/);
    expect(text).toContain('log_pending_entries 1');
    expect(text).toContain('log_checkpoint_age_seconds -1');
    expect(text).toContain('process_cpu_user_seconds_total');

    // the same on the metrics port, with no token (reachable only where the operator binds it)
    const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('receipts_issued_total{decision="ALLOW"} 1');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});

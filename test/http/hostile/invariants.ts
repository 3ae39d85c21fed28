import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { validRequest } from '../../helpers/ron.js';
import type { HostileApp } from './app.js';
import { ciRequest } from './requests.js';

const STACK = /at .*:\d+:\d+/;
const SQL =
  /\b(select\s.+\sfrom|insert\s+into|update\s.+\sset|delete\s+from|syntax error at or near|violates .* constraint|invalid input syntax for|duplicate key value|relation ".*" does not exist|SQLSTATE)\b/i;

/** The invariants every answer keeps, whatever was sent. */
export function expectSafe(res: LightMyRequestResponse, what = ''): void {
  const context = `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, context).toBeLessThan(500);
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode < 200 || res.statusCode >= 300) {
    expect(type, context).toMatch(/^application\/json/);
    const body: unknown = JSON.parse(res.body);
    expect(body, context).toBeTypeOf('object');
    expect((body as { error?: unknown }).error, context).toBeTypeOf('string');
    expect(res.body, context).not.toMatch(SQL);
  }
  if (!type.startsWith('application/pdf')) expect(res.body, context).not.toMatch(STACK);
}

/** After the hostile input: the service (and the small app) still answers valid requests. */
export async function expectStillAnswering(h: HostileApp): Promise<void> {
  const { ctx, key, notary, small } = h;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().decision).toBe('ALLOW');
  const id: string = res.json().receiptId;
  for (const url of [`/api/v1/receipt/${id}`, `/api/v1/receipt/${id}/pdf`, '/api/v1/receipts']) {
    const got = await ctx.app.inject({ url, headers: { 'x-api-key': key } });
    expect(got.statusCode, url).toBe(200);
  }
  const ci = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': key },
    payload: ciRequest(),
  });
  expect(ci.statusCode, ci.body).toBe(200);
  const onSmall = await small.inject({ url: '/healthz' });
  expect(onSmall.statusCode).toBe(200);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

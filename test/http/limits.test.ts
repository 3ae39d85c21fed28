import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.js';
import type { VerificationRequest } from '../../src/contract/verification.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { atLimitRequest, registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { ciRequest } from './hostile/requests.js';

/**
 * Size limits: every string of every request body and validated header has a maximum
 * length, every array a maximum count; over a limit is a 400 naming the path and the limit, and a
 * request with every field at its limit is issued and its PDF renders.
 */

let ctx: TestContext;
let key: string;
let notary: Notary;

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read']);
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => ctx.close());

type Schema = Record<string, unknown>;

/** JSON paths of request strings without maxLength and arrays without maxItems. */
function unbounded(doc: Schema, schema: Schema, path: string, seen = new Set<string>()): string[] {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    if (seen.has(ref)) return [];
    const name = ref.replace('#/components/schemas/', '');
    const components = (doc.components as { schemas: Record<string, Schema> }).schemas;
    return unbounded(doc, components[name] ?? {}, path, new Set([...seen, ref]));
  }
  const found: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const s of (schema[key] as Schema[] | undefined) ?? []) {
      found.push(...unbounded(doc, s, path, seen));
    }
  }
  if (schema.type === 'string' && schema.maxLength === undefined && !schema.enum) {
    found.push(path);
  }
  if (schema.type === 'array') {
    if (schema.maxItems === undefined) found.push(path);
    found.push(...unbounded(doc, (schema.items as Schema) ?? {}, `${path}[]`, seen));
  }
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  for (const [name, s] of Object.entries(properties)) {
    found.push(...unbounded(doc, s, `${path}.${name}`, seen));
  }
  return found;
}

describe('request limits', () => {
  it('every request body string and header has a maxLength, every array a maxItems', async () => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json() as Schema;
    const found: string[] = [];
    for (const [route, item] of Object.entries(doc.paths as Record<string, Schema>)) {
      for (const [method, op] of Object.entries(item as Record<string, Schema>)) {
        const where = `${method.toUpperCase()} ${route}`;
        const body = (op.requestBody as Schema | undefined)?.content as Schema | undefined;
        const json = (body?.['application/json'] as Schema | undefined)?.schema as Schema;
        if (json) found.push(...unbounded(doc, json, `${where} body`));
        for (const p of (op.parameters as Schema[] | undefined) ?? []) {
          if (p.in === 'header')
            found.push(...unbounded(doc, p.schema as Schema, `${where} ${p.name}`));
        }
      }
    }
    // pdfBase64 is bounded by BODY_LIMIT_BYTES (the whole body), not by a field limit.
    expect(found).toEqual(['POST /api/v1/verify body.doc.pdfBase64']);
  });

  it('a field one character over its limit is a 400 naming the path and the limit', async () => {
    const cases: [string, (r: VerificationRequest) => void, number][] = [
      ['bundleId', (r) => (r.bundleId = 'b'.repeat(LIMITS.id + 1)), LIMITS.id],
      [
        'ron.sealPayload',
        (r) => (r.ron.sealPayload = 's'.repeat(LIMITS.sealPayload + 1)),
        LIMITS.sealPayload,
      ],
      [
        'ocrData.notaryName',
        (r) => (r.ocrData = { notaryName: 'n '.repeat(LIMITS.name) }),
        LIMITS.name,
      ],
      [
        'policy.profile',
        (r) => (r.policy.profile = 'p'.repeat(LIMITS.profile + 1)),
        LIMITS.profile,
      ],
    ];
    for (const [path, mutate, limit] of cases) {
      const request = validRequest(notary);
      mutate(request);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/verify',
        headers: { 'x-api-key': key },
        payload: request,
      });
      expect(res.statusCode, path).toBe(400);
      const body = res.json();
      expect(body.error).toBe('validation_failed');
      const issue = body.details.find((d: { path: string }) => d.path === path);
      expect(issue?.message, path).toContain(String(limit));
    }
  });

  it('a CI request over a limit, or with a non-http(s) URL, is a 400 naming the field', async () => {
    const bad = [
      ['externalId', { ...ciRequest(), externalId: 'e'.repeat(LIMITS.id + 1) }],
      ['detailsUrl', { ...ciRequest(), detailsUrl: 'javascript:alert(1)' }],
      [
        'repository.htmlUrl',
        { ...ciRequest(), repository: { fullName: 'o/r', htmlUrl: 'data:text/html,x' } },
      ],
    ] as const;
    for (const [path, payload] of bad) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/verifications/ci',
        headers: { 'x-api-key': key },
        payload,
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('a request with every field at its limit is issued, and its PDF renders', async () => {
    const request = atLimitRequest(notary);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: request,
    });
    expect(res.statusCode).toBe(200);
    const pdf = await ctx.app.inject({
      url: `/api/v1/receipt/${res.json().receiptId}/pdf`,
      headers: { 'x-api-key': key },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';

const SPEC_ENDPOINTS: [string, string][] = [
  ['post', '/api/v1/verify'],
  ['get', '/api/v1/receipt/{receiptId}'],
  ['get', '/api/v1/receipt/{receiptId}/pdf'],
  ['post', '/api/v1/receipt/{receiptId}/verify'],
  ['post', '/api/v1/receipt/{receiptId}/revoke'],
  ['post', '/api/v1/anchor/{receiptId}'],
  ['get', '/api/v1/receipts'],
  ['post', '/api/v1/verifications/ci'],
];

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.0.3 document, version 1.1.0', async ({ ctx }) => {
    const res = await ctx.app.inject({ url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('1.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it('covers every endpoint of the spec with the x-api-key security scheme', async ({ ctx }) => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    for (const [method, path] of SPEC_ENDPOINTS) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(op.security).toEqual([{ apiKey: [] }]);
    }
  });

  it('serves Swagger UI at /docs, under the service title', async ({ ctx }) => {
    const res = await ctx.app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
    expect(res.body).toContain('<title>Verification Receipt Service API</title>');
  });

  it('has one schema per contract type, no identical *Input twin', async ({ ctx }) => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const names = Object.keys(doc.components.schemas);
    expect(names).toContain('VerificationRequest');
    for (const name of names.filter((n) => n.endsWith('Input'))) {
      const twin = doc.components.schemas[name.slice(0, -5)];
      expect(JSON.stringify(doc.components.schemas[name])).not.toBe(JSON.stringify(twin));
    }
    expect(JSON.stringify(doc)).not.toContain('Input"');
  });
});

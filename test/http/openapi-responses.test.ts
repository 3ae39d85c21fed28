import validatorModule from 'openapi-response-validator';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { minimalRequest } from '../helpers/requests.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { ciRequest } from './hostile/requests.js';

/**
 * Live responses against the served OpenAPI document, checked by an independent ajv-based
 * OpenAPI 3 response validator (openapi-response-validator): what a generated client would
 * accept. Every documented status a test can provoke is sent, success and error bodies alike.
 */

/** A CommonJS module with `exports.default`: the class, whatever the interop in use. */
type ValidatorClass = typeof import('openapi-response-validator').default;
const OpenAPIResponseValidator = ((validatorModule as unknown as { default?: ValidatorClass })
  .default ?? validatorModule) as ValidatorClass;

let ctx: TestContext;
let key: string;
let notary: Notary;
let doc: OpenAPIV3.Document;
const issuerPem = ed25519Pem();
const checked: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read', 'anchor', 'revoke']);
  notary = await registerNotary(ctx.repos);
  await ctx.repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'tenant-a',
    publicKey: rawEd25519PublicKey(issuerPem),
  });
  doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
});
afterAll(async () => ctx.close());

interface Call {
  method: 'GET' | 'POST';
  /** The document's path template, e.g. /api/v1/receipt/{receiptId}. */
  route: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** Sends the call and validates the answer against the document; returns the parsed body. */
async function call(c: Call, expectedStatus: number): Promise<Record<string, unknown>> {
  const res = await ctx.app.inject({
    method: c.method,
    url: c.url,
    headers: { 'x-api-key': key, ...c.headers },
    ...(c.payload === undefined ? {} : { payload: c.payload as object }),
  });
  expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBe(expectedStatus);
  const operation = doc.paths[c.route]?.[c.method.toLowerCase() as 'get' | 'post'];
  expect(operation, `${c.method} ${c.route} is documented`).toBeDefined();
  const responses = operation?.responses as Record<string, OpenAPIV3.ResponseObject>;
  expect(Object.keys(responses), `${c.route} documents ${expectedStatus}`).toContain(
    String(expectedStatus),
  );
  const validator = new OpenAPIResponseValidator({
    responses: responses as never,
    components: doc.components as OpenAPIV3.ComponentsObject,
  });
  const body = res.json();
  expect(validator.validateResponse(String(expectedStatus), body), res.body).toBeUndefined();
  checked.push(`${c.method} ${c.route} ${expectedStatus}`);
  return body;
}

const verify = (payload: unknown): Call => ({
  method: 'POST',
  route: '/api/v1/verify',
  url: '/api/v1/verify',
  payload,
});
const onReceipt = (method: 'GET' | 'POST', suffix: string, id: string): Call => ({
  method,
  route: `/api/v1/receipt/{receiptId}${suffix}`,
  url: `/api/v1/receipt/${id}${suffix}`,
});

describe('responses validate against the served OpenAPI document', () => {
  it('receipts: issue, fetch, list, re-verify, revoke, anchor', async () => {
    const issued = await call(verify(validRequest(notary)), 200);
    const id = String(issued.receiptId);
    const legacyLike = await call(verify(minimalRequest()), 200);
    await call(onReceipt('GET', '', id), 200);
    await call({ method: 'GET', route: '/api/v1/receipts', url: '/api/v1/receipts?limit=5' }, 200);
    await call(onReceipt('POST', '/verify', id), 200);

    // anchor: PENDING, then ANCHORED with every evidence field
    const anchorCall: Call = {
      method: 'POST',
      route: '/api/v1/anchor/{receiptId}',
      url: `/api/v1/anchor/${id}`,
    };
    await call(anchorCall, 200);
    await ctx.app.services.anchoring.sealAll();
    const anchored = await call(anchorCall, 200);
    expect(Object.keys(anchored)).toEqual(
      expect.arrayContaining(['logIndex', 'treeSize', 'rootHash', 'inclusionProof', 'checkpoint']),
    );
    await call(
      {
        method: 'POST',
        route: '/api/v1/anchor/{receiptId}',
        url: `/api/v1/anchor/${String(legacyLike.receiptId)}`,
      },
      409,
    );
    await call(
      { method: 'GET', route: '/api/v1/log/checkpoint', url: '/api/v1/log/checkpoint' },
      200,
    );

    const revoke = onReceipt('POST', '/revoke', id);
    const timestamp = new Date().toISOString();
    const signed = signRevocation(issuerPem, 'escrow-co', id, timestamp);
    revoke.headers = {
      'x-issuer-id': signed.issuerId,
      'x-signature-timestamp': signed.timestamp,
      'x-issuer-signature': signed.signature,
    };
    await call(revoke, 200);
    await call(revoke, 200);
    await call(onReceipt('POST', '/verify', id), 200);
  });

  it('CI adapter', async () => {
    await call(
      {
        method: 'POST',
        route: '/api/v1/verifications/ci',
        url: '/api/v1/verifications/ci',
        payload: ciRequest(),
      },
      200,
    );
  });

  it('error bodies: 400, 401, 404', async () => {
    await call(verify({ bundleId: '' }), 400);
    await call({ ...onReceipt('GET', '', '00000000-0000-4000-8000-000000000000') }, 404);
    await call({ ...onReceipt('GET', '', 'not-a-uuid') }, 400);
    await call({ ...verify(minimalRequest()), headers: { 'x-api-key': 'nope' } }, 401);
  });

  it('policy profiles: the list, one profile, an undefined one', async () => {
    await call({ method: 'GET', route: '/policies', url: '/policies' }, 200);
    const one = { method: 'GET' as const, route: '/policies/{profile}' };
    await call({ ...one, url: '/policies/ron-strict-v1' }, 200);
    await call({ ...one, url: '/policies/ci-provenance-v2' }, 200);
    await call({ ...one, url: '/policies/ron-unknown-v9' }, 404);
  });

  it('an unsigned receipt: receiptSignature null is a documented value', async () => {
    const unsigned = await createTestContext({ SIGNING_DISABLED: 'true' });
    const previous = ctx;
    try {
      ctx = unsigned;
      key = await unsigned.apiKey(['verify', 'read']);
      const issued = await call(verify(minimalRequest()), 200);
      const status = await call(onReceipt('POST', '/verify', String(issued.receiptId)), 200);
      expect(status.receiptSignature).toBeNull();
    } finally {
      ctx = previous;
      key = await ctx.apiKey(['verify', 'read', 'anchor', 'revoke']);
      await unsigned.close();
    }
  });

  it('every nullable schema has a sibling type (OpenAPI 3.0.3 ignores nullable without one)', () => {
    const offenders: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (schema.nullable === true && schema.type === undefined) offenders.push(path);
      for (const [k, v] of Object.entries(schema)) walk(v, `${path}.${k}`);
    };
    walk(doc, '$');
    expect(offenders).toEqual([]);
  });

  it('AnchorState declares the fields needed to check an inclusion proof', () => {
    const anchorState = doc.components?.schemas?.AnchorState as OpenAPIV3.SchemaObject;
    expect(Object.keys(anchorState.properties ?? {})).toEqual(
      expect.arrayContaining(['logIndex', 'treeSize', 'rootHash', 'inclusionProof', 'checkpoint']),
    );
  });

  it('covered the statuses above', () => {
    expect(checked.length).toBeGreaterThanOrEqual(19);
  });
});

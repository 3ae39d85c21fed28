import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { hashSecret, secretMatches } from '../../src/auth/api-key-token.js';
import type { CiVerificationRequest } from '../../src/contract/ci.js';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { ALL_SCOPES, createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

/**
 * Hostile input against every /api/v1 endpoint, with an API key holding every scope so requests
 * get past authentication into parsing and validation. Whatever arrives: never a 5xx, every
 * non-2xx is an ErrorResponse (JSON with a string `error`), no stack trace or SQL in any body,
 * and the service keeps answering afterwards.
 */

const LIMIT = 65_536;
const STACK = /at .*:\d+:\d+/;
const SQL =
  /\b(select\s.+\sfrom|insert\s+into|update\s.+\sset|delete\s+from|syntax error at or near|violates .* constraint|invalid input syntax for|duplicate key value|relation ".*" does not exist|SQLSTATE)\b/i;

let ctx: TestContext;
/** Same store, BODY_LIMIT_BYTES 64 KiB: for oversize bodies. */
let small: FastifyInstance;
let key: string;
/** A tenant of its own with a few receipts, so that listing stays cheap. */
let listKey: string;
let notary: Notary;
let receiptId: string;
const issuerPem = ed25519Pem();

type Method = 'GET' | 'POST';
interface Endpoint {
  name: string;
  method: Method;
  path: (id: string) => string;
  /** Needs the issuer headers (revoke). */
  issuer?: true;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'verify', method: 'POST', path: () => '/api/v1/verify' },
  { name: 'receipt', method: 'GET', path: (id) => `/api/v1/receipt/${id}` },
  { name: 'pdf', method: 'GET', path: (id) => `/api/v1/receipt/${id}/pdf` },
  { name: 're-verify', method: 'POST', path: (id) => `/api/v1/receipt/${id}/verify` },
  { name: 'revoke', method: 'POST', path: (id) => `/api/v1/receipt/${id}/revoke`, issuer: true },
  { name: 'anchor', method: 'POST', path: (id) => `/api/v1/anchor/${id}` },
  { name: 'list', method: 'GET', path: () => '/api/v1/receipts' },
  { name: 'ci', method: 'POST', path: () => '/api/v1/verifications/ci' },
  { name: 'consistency', method: 'GET', path: () => '/api/v1/log/consistency?from=1&to=1' },
  { name: 'checkpoint', method: 'GET', path: () => '/api/v1/log/checkpoint' },
];
const POST_ENDPOINTS = ENDPOINTS.filter((e) => e.method === 'POST');
const ID_ENDPOINTS = ENDPOINTS.filter((e) => e.path('ID').includes('ID'));
const endpoint = fc.constantFrom(...ENDPOINTS);

function ciRequest(): CiVerificationRequest {
  return {
    externalId: `run-${randomBytes(6).toString('hex')}`,
    headSha: 'a'.repeat(40),
    subject: { kind: 'workflow_run', summary: 'build and test' },
    repository: { fullName: 'acme/widgets', htmlUrl: 'https://github.com/acme/widgets' },
    provenance: { eventName: 'push' },
  };
}

function issuerHeaders(id: string): Record<string, string> {
  const h = signRevocation(issuerPem, 'escrow-co', id, new Date().toISOString());
  return {
    'x-issuer-id': h.issuerId,
    'x-signature-timestamp': h.timestamp,
    'x-issuer-signature': h.signature,
  };
}

interface Send {
  endpoint: Endpoint;
  id?: string;
  /** Raw body text (sent as is). */
  payload?: string;
  headers?: Record<string, string>;
  app?: FastifyInstance;
}

async function send(s: Send): Promise<LightMyRequestResponse> {
  const options: InjectOptions = {
    method: s.endpoint.method,
    url: s.endpoint.path(s.id ?? receiptId),
    headers: {
      'x-api-key': key,
      ...(s.payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(s.endpoint.issuer ? issuerHeaders(s.id ?? receiptId) : {}),
      ...s.headers,
    },
    ...(s.payload !== undefined && s.endpoint.method === 'POST' ? { payload: s.payload } : {}),
  };
  return (s.app ?? ctx.app).inject(options);
}

/** The invariants every answer keeps, whatever was sent. */
function expectSafe(res: LightMyRequestResponse, what = ''): void {
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

/** Every path of a JSON document, leaves and containers alike. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  return children.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

/** A copy of `doc` with the value at `path` replaced (or removed when `value` is undefined). */
function setPath(doc: unknown, path: (string | number)[], value: unknown): unknown {
  const copy: unknown = structuredClone(doc);
  let node = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** Header values the HTTP layer can carry: visible ASCII, space, tab and Latin-1 (obs-text). */
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
  .map((c) => String.fromCharCode(c));
const headerValue = (maxLength = 120) => fc.string({ unit: headerChar, maxLength });

/** Any JSON text, including strings with NUL and lone surrogates, and non-JSON text. */
const anyBodyText = fc.oneof(
  fc.json({ stringUnit: 'binary', maxDepth: 4 }),
  fc.anything({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** Everything the fields of a request could wrongly be. */
const anyValue = fc.oneof(
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }),
  fc.constantFrom(null, true, false, 0, -1, 1e308, '', ' ', [], {}, undefined),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
);

beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_MAX: '1000000' });
  key = await ctx.apiKey(ALL_SCOPES);
  notary = await registerNotary(ctx.repos);
  await ctx.repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'tenant-a',
    publicKey: rawEd25519PublicKey(issuerPem),
  });
  const issued = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary),
  });
  expect(issued.statusCode, issued.body).toBe(200);
  receiptId = issued.json().receiptId;
  listKey = await ctx.apiKey(['verify', 'read'], 'tenant-list');
  for (let i = 0; i < 3; i++) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verifications/ci',
      headers: { 'x-api-key': listKey },
      payload: ciRequest(),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  // a checkpoint, so that the anchor and log endpoints have proofs to compute
  await ctx.app.anchoring.sealOnce();
  small = await buildApp({
    config: { ...ctx.config, bodyLimitBytes: LIMIT },
    db: ctx.db,
    logger: false,
  });
  await small.ready();
}, 120_000);

afterAll(async () => {
  await small?.close();
  await ctx?.close();
});

describe('hostile bodies', () => {
  it('arbitrary JSON (and non-JSON) to every endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(endpoint, anyBodyText, async (e, payload) => {
        expectSafe(await send({ endpoint: e, payload }), `${e.name} ${payload.slice(0, 80)}`);
      }),
      { numRuns: 150 },
    );
  });

  it('one field of a valid RON request set to a wrong type or value (or removed)', async () => {
    const base = validRequest(notary);
    const paths = pathsOf(base);
    const verify = ENDPOINTS[0] as Endpoint;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), anyValue, async (path, value) => {
        const payload = JSON.stringify(setPath(base, path, value));
        expectSafe(await send({ endpoint: verify, payload }), `${path.join('.')} = ${value}`);
      }),
      { numRuns: 120 },
    );
  });

  it('one field of a valid CI request set to a wrong type or value (or removed)', async () => {
    const base = ciRequest();
    const paths = pathsOf(base);
    const ci = ENDPOINTS.find((e) => e.name === 'ci') as Endpoint;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), anyValue, async (path, value) => {
        const payload = JSON.stringify(
          setPath({ ...base, externalId: ciRequest().externalId }, path, value),
        );
        expectSafe(await send({ endpoint: ci, payload }), `${path.join('.')} = ${value}`);
      }),
      { numRuns: 60 },
    );
  });

  it('hostile characters in every string field of a valid RON or CI request', async () => {
    const ron = validRequest(notary);
    const ci = ciRequest();
    const stringPaths = (doc: unknown) =>
      pathsOf(doc).filter((p) => {
        let node: unknown = doc;
        for (const step of p) node = (node as Record<string | number, unknown>)[step];
        return typeof node === 'string';
      });
    const targets = [
      ...stringPaths(ron).map((path) => ({ endpoint: ENDPOINTS[0] as Endpoint, doc: ron, path })),
      ...stringPaths(ci).map((path) => ({
        endpoint: ENDPOINTS.find((e) => e.name === 'ci') as Endpoint,
        doc: ci,
        path,
      })),
    ];
    const nasty = fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udfff',
      '\udc00\ud800',
      '\u202e',
      '\ufeff',
      '\uffff',
      '\u{10ffff}',
      '\\',
      '"',
      "'; drop table receipts; --",
      '\r\n',
      '%00',
      '${jndi:ldap://x}',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.tuple(fc.string({ unit: 'grapheme', maxLength: 5 }), nasty, fc.string({ maxLength: 5 })),
        async (target, [before, bad, after]) => {
          const value = before + bad + after;
          const doc = setPath(target.doc, target.path, value) as Record<string, unknown>;
          if (target.doc === ci) doc.externalId = `${ciRequest().externalId}${value}`;
          const payload = JSON.stringify(doc);
          expectSafe(
            await send({ endpoint: target.endpoint, payload }),
            `${target.endpoint.name} ${target.path.join('.')} = ${JSON.stringify(value)}`,
          );
        },
      ),
      { numRuns: 120 },
    );
  });

  it('unknown keys at any level of a valid request are a 400', async () => {
    const base = validRequest(notary);
    const objects = [
      [],
      ...pathsOf(base).filter((p) => {
        let node: unknown = base;
        for (const step of p) node = (node as Record<string | number, unknown>)[step];
        return node !== null && typeof node === 'object' && !Array.isArray(node);
      }),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...objects),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
        anyValue,
        async (path, name, value) => {
          const doc = structuredClone(base) as unknown as Record<string, unknown>;
          let node = doc;
          for (const step of path) node = node[step] as Record<string, unknown>;
          if (Object.hasOwn(node, name)) return;
          Object.defineProperty(node, name, { value: value ?? null, enumerable: true });
          const res = await send({
            endpoint: ENDPOINTS[0] as Endpoint,
            payload: JSON.stringify(doc),
          });
          expectSafe(res, `${path.join('.')}[${name}]`);
          expect(res.statusCode).toBe(400);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('bad base64 in doc.pdfBase64', async () => {
    const base = validRequest(notary);
    const badBase64 = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.base64String({ minLength: 4 }).map((s) => `${s}=`),
      fc.base64String({ minLength: 4 }).map((s) => s.replaceAll('+', '-').replaceAll('/', '_')),
      fc
        .tuple(
          fc.base64String({ minLength: 8 }),
          fc.nat(),
          fc.constantFrom(' ', '\n', '.', '%', '=='),
        )
        .map(([s, at, c]) => s.slice(0, at % s.length) + c + s.slice(at % s.length)),
      fc.base64String({ minLength: 4 }).map((s) => `data:application/pdf;base64,${s}`),
      fc.constantFrom('=', '==', 'A', 'AB=', 'A===', '====', '\u0000', 'QQ==QQ=='),
    );
    const verify = ENDPOINTS[0] as Endpoint;
    await fc.assert(
      fc.asyncProperty(badBase64, async (pdfBase64) => {
        const payload = JSON.stringify({ ...base, doc: { ...base.doc, pdfBase64 } });
        expectSafe(await send({ endpoint: verify, payload }), pdfBase64.slice(0, 80));
      }),
      { numRuns: 60 },
    );
  });

  it('deep nesting (1k to 10k levels of arrays and objects), as raw text', async () => {
    const shape = fc.constantFrom('array', 'object', 'in-field', 'proto', 'unclosed');
    const nest = (kind: string, depth: number) => {
      switch (kind) {
        case 'array':
          return '['.repeat(depth) + ']'.repeat(depth);
        case 'object':
          return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
        case 'in-field':
          return `{"bundleId":${'[{"x":'.repeat(depth)}0${'}]'.repeat(depth)}}`;
        case 'proto':
          return '{"a":'.repeat(depth) + '{"__proto__":{"polluted":1}}' + '}'.repeat(depth);
        default:
          return '['.repeat(depth);
      }
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_ENDPOINTS),
        shape,
        fc.integer({ min: 1000, max: 10_000 }),
        async (e, kind, depth) => {
          expectSafe(await send({ endpoint: e, payload: nest(kind, depth) }), `${e.name} ${kind}`);
        },
      ),
      { numRuns: 25 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('huge strings (1-5 MB) in a field, a header, a cursor or a path', async () => {
    const verify = ENDPOINTS[0] as Endpoint;
    const ci = ENDPOINTS.find((e) => e.name === 'ci') as Endpoint;
    const list = ENDPOINTS.find((e) => e.name === 'list') as Endpoint;
    const receipt = ENDPOINTS.find((e) => e.name === 'receipt') as Endpoint;
    const revoke = ENDPOINTS.find((e) => e.name === 'revoke') as Endpoint;
    const targets = [
      (s: string) =>
        send({
          endpoint: verify,
          payload: JSON.stringify({ ...validRequest(notary), bundleId: s }),
        }),
      (s: string) => {
        const r = validRequest(notary);
        return send({
          endpoint: verify,
          payload: JSON.stringify({
            ...r,
            doc: { ...r.doc, pdfBase64: Buffer.from(s).toString('base64') },
          }),
        });
      },
      (s: string) =>
        send({
          endpoint: ci,
          payload: JSON.stringify({ ...ciRequest(), subject: { kind: 'k', summary: s } }),
        }),
      (s: string) => send({ endpoint: list, headers: { 'x-api-key': s } }),
      (s: string) =>
        send({ endpoint: { ...list, path: () => `/api/v1/receipts?cursor=${s}&limit=${s}` } }),
      (s: string) => send({ endpoint: receipt, id: s }),
      (s: string) =>
        send({ endpoint: revoke, headers: { 'x-issuer-id': s, 'x-issuer-signature': s } }),
    ];
    // one run per target: each sends megabytes
    for (const [i, target] of targets.entries()) {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1_000_000, max: 5_000_000 }),
          fc.constantFrom('x', '\u00e9', 'A', '0'),
          async (size, char) => {
            expectSafe(await target(char.repeat(size)), `target ${i}, ${size} x ${char}`);
          },
        ),
        { numRuns: 1 },
      );
    }
  }, 60_000);
});

describe('oversize bodies (BODY_LIMIT_BYTES 65536)', () => {
  it('are a 400 validation_failed naming the limit, on every POST endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_ENDPOINTS),
        fc.integer({ min: LIMIT + 1, max: 4 * LIMIT }),
        fc.constantFrom('json-field', 'json-array', 'garbage'),
        async (e, size, kind) => {
          const payload =
            kind === 'json-field'
              ? JSON.stringify({ bundleId: 'b'.repeat(size) })
              : kind === 'json-array'
                ? `[${'1,'.repeat(Math.ceil(size / 2))}1]`
                : 'z'.repeat(size);
          const res = await send({ endpoint: e, payload, app: small });
          expectSafe(res, `${e.name} ${kind} ${size}`);
          expect(res.statusCode).toBe(400);
          expect(res.json()).toMatchObject({
            error: 'validation_failed',
            details: { limitBytes: LIMIT },
          });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('with a non-JSON content type, are a 400 too', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_ENDPOINTS),
        fc.constantFrom('text/plain', 'application/octet-stream', 'multipart/form-data'),
        async (e, type) => {
          const res = await send({
            endpoint: e,
            payload: 'q'.repeat(LIMIT + 10),
            headers: { 'content-type': type },
            app: small,
          });
          expectSafe(res, `${e.name} ${type}`);
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toBe('validation_failed');
        },
      ),
      { numRuns: 10 },
    );
  });
});

describe('hostile URLs', () => {
  it('bad receipt ids in the path (URL-encoded strings, near-uuids, bad escapes)', async () => {
    const validUuid = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
    const badId = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }).map(encodeURIComponent),
      fc.string({ unit: 'binary-ascii', maxLength: 60 }).map(encodeURIComponent),
      fc.uuid(),
      fc.uuid().map((u) => u.toUpperCase()),
      fc
        .tuple(fc.nat(35), fc.constantFrom('g', 'Z', '-', '', '00', '%00', '%20', '\u00e9'))
        .map(([at, c]) => encodeURI(validUuid.slice(0, at) + c + validUuid.slice(at + 1))),
      fc.constantFrom(
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        '%',
        '%E0%A4%A',
        '%zz',
        '%00',
        '..%2F..%2Fetc%2Fpasswd',
        `${validUuid}%00`,
        `{${validUuid}}`,
        'a'.repeat(500),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ID_ENDPOINTS), badId, async (e, id) => {
        expectSafe(await send({ endpoint: e, id }), `${e.name} ${id}`);
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary query strings on GET /receipts always list (never 400)', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url');
    const cursor = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }).map(encodeURIComponent),
      fc.anything({ maxDepth: 2 }).map(b64),
      fc.tuple(fc.string(), fc.string()).map(b64),
      fc
        .tuple(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.uuid(),
        )
        .map(b64),
      fc
        .tuple(
          fc.string({ unit: fc.constantFrom(...'0123456789-TZ:.'), minLength: 1, maxLength: 30 }),
          fc.string({
            unit: fc.constantFrom(...'0123456789abcdef-'),
            minLength: 36,
            maxLength: 36,
          }),
        )
        .map(b64),
    );
    const param = fc.oneof(
      fc.tuple(
        fc.constantFrom('limit', 'limit[]', 'cursor', 'cursor[0]'),
        fc.oneof(cursor, fc.string()),
      ),
      fc.tuple(fc.constant('limit'), fc.oneof(fc.integer().map(String), fc.double().map(String))),
      fc.tuple(fc.constant('cursor'), cursor),
      fc.tuple(
        fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent),
        fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent),
      ),
      fc.tuple(
        fc.constantFrom('%', '%zz', '&', '=', '[]', '__proto__', 'constructor'),
        fc.constantFrom('', '%', '%E0%A4%A', '==', '&&'),
      ),
    );
    const list = ENDPOINTS.find((e) => e.name === 'list') as Endpoint;
    await fc.assert(
      fc.asyncProperty(fc.array(param, { maxLength: 5 }), async (params) => {
        const query = params.map(([k, v]) => `${k}=${v}`).join('&');
        const res = await send({
          endpoint: { ...list, path: () => `/api/v1/receipts?${query}` },
          headers: { 'x-api-key': listKey },
        });
        expectSafe(res, query);
        expect(res.statusCode, `${query} -> ${res.body}`).toBe(200);
        expect(Array.isArray(res.json())).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary from/to on GET /log/consistency', async () => {
    const size = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
      fc.integer().map(String),
      fc.bigInt().map(String),
      fc.double().map(String),
      fc.constantFrom(
        '1',
        '1e400',
        '0x10',
        '-0',
        '1.5',
        'Infinity',
        'NaN',
        '',
        ' 1 ',
        '9007199254740993',
        '9223372036854775808',
        '1&from=2',
        '%',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.option(size), fc.option(size), async (from, to) => {
        const query = [from === null ? '' : `from=${from}`, to === null ? '' : `to=${to}`].join(
          '&',
        );
        const e = { ...(ENDPOINTS.find((x) => x.name === 'consistency') as Endpoint) };
        expectSafe(
          await send({ endpoint: { ...e, path: () => `/api/v1/log/consistency?${query}` } }),
          query,
        );
      }),
      { numRuns: 120 },
    );
  });
});

describe('garbage headers', () => {
  it('random x-api-key values are a 401 on every endpoint, before anything else', async () => {
    await fc.assert(
      fc.asyncProperty(
        endpoint,
        fc.oneof(
          headerValue(),
          fc
            .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 })
            .chain((id) =>
              fc
                .base64String({ minLength: 40, maxLength: 44 })
                .map((s) => `vrs_${id}_${s.replace(/=+$/, '')}`),
            ),
          fc.constant(key.slice(0, -1)),
          fc.constant(`${key} `),
          fc.constant(key.toUpperCase()),
        ),
        fc.option(headerValue()),
        async (e, apiKey, requestId) => {
          const res = await send({
            endpoint: e,
            payload: '{}',
            headers: { 'x-api-key': apiKey, ...(requestId ? { 'x-request-id': requestId } : {}) },
          });
          expectSafe(res, `${e.name} ${apiKey}`);
          expect(res.statusCode).toBe(401);
          expect(res.json().error).toBe('unauthorized');
        },
      ),
      { numRuns: 120 },
    );
  });

  it('random content types, with a valid key and a valid body', async () => {
    const mime = fc.oneof(
      headerValue(60),
      fc.constantFrom(
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json;;;',
        'application/json; boundary=',
        'APPLICATION/JSON',
        'application/jsonx',
        'application/json-patch+json',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'text/json',
        '*/*',
        ';',
        '',
      ),
    );
    const body = JSON.stringify(validRequest(notary));
    await fc.assert(
      fc.asyncProperty(endpoint, mime, async (e, contentType) => {
        const payload = e.name === 'ci' ? JSON.stringify(ciRequest()) : body;
        const res = await send({ endpoint: e, payload, headers: { 'content-type': contentType } });
        expectSafe(res, `${e.name} ${contentType}`);
      }),
      { numRuns: 100 },
    );
  });

  it('random issuer headers on revoke are a 401 (never a revocation)', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: validRequest(notary),
    });
    const id: string = issued.json().receiptId;
    const real = issuerHeaders(id);
    const revoke = ENDPOINTS.find((e) => e.name === 'revoke') as Endpoint;
    const header = (name: keyof typeof real) =>
      fc.oneof(headerValue(), fc.constant(real[name]), fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(
        header('x-issuer-id'),
        header('x-signature-timestamp'),
        header('x-issuer-signature'),
        async (issuerId, timestamp, signature) => {
          const headers = {
            'x-issuer-id': issuerId,
            'x-signature-timestamp': timestamp,
            'x-issuer-signature': signature,
          };
          if (
            issuerId === real['x-issuer-id'] &&
            timestamp === real['x-signature-timestamp'] &&
            signature === real['x-issuer-signature']
          )
            return;
          const res = await ctx.app.inject({
            method: 'POST',
            url: revoke.path(id),
            headers: {
              'x-api-key': key,
              ...Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)),
            } as Record<string, string>,
          });
          expectSafe(res, JSON.stringify(headers));
          expect(res.statusCode).toBe(401);
        },
      ),
      { numRuns: 80 },
    );
    const after = await ctx.app.inject({
      url: `/api/v1/receipt/${id}`,
      headers: { 'x-api-key': key },
    });
    expect(after.json().revocation.status).toBe('ACTIVE');
  });
});

describe('regressions found by these properties', () => {
  const post = (url: string, payload: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload,
    });

  it('U+0000 in a request string is a 400 naming the field (was a 500: jsonb cannot hold it)', async () => {
    const res = await post(
      '/api/v1/verify',
      JSON.stringify({ ...validRequest(notary), bundleId: 'b\u0000' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_failed',
      details: [{ in: 'body', path: 'bundleId' }],
    });
    const ci = await post(
      '/api/v1/verifications/ci',
      JSON.stringify({ ...ciRequest(), externalId: 'run\u0000' }),
    );
    expect(ci.statusCode).toBe(400);
    expect(ci.json().details).toEqual([expect.objectContaining({ path: 'externalId' })]);
    const inKey = await post('/api/v1/verify', '{"ocrData":{"a\\u0000":1}}');
    expect(inKey.statusCode).toBe(400);
  });

  it('an unpaired surrogate in a request string is a 400 (was a 500)', async () => {
    const request = validRequest(notary);
    const body = JSON.stringify({
      ...request,
      property: { ...request.property, county: 'Tr\ud800vis' },
    });
    expect(body).toContain('\\ud800');
    const res = await post('/api/v1/verify', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ path: 'property.county' })]);
    const ci = await post(
      '/api/v1/verifications/ci',
      JSON.stringify({ ...ciRequest(), externalId: '\udc00' }),
    );
    expect(ci.statusCode).toBe(400);
    // paired surrogates (astral characters) are fine
    const ok = await post(
      '/api/v1/verify',
      JSON.stringify({ ...request, bundleId: 'deed \u{1F3E0}' }),
    );
    expect(ok.statusCode).toBe(200);
  });

  it.each([
    ['36 dashes for the id', ['2024-01-01T00:00:00.000Z', '-'.repeat(36)]],
    ["'1' for the time", ['1', '1b4e28ba-2fa1-41d2-883f-0016d3cca427']],
    ['February 30', ['2021-02-30T00:00:00.000Z', '1b4e28ba-2fa1-41d2-883f-0016d3cca427']],
    ['year 0', ['0000-01-01T00:00:00.000Z', '1b4e28ba-2fa1-41d2-883f-0016d3cca427']],
    ['year +10000', ['+010000-01-01T00:00:00.000Z', '1b4e28ba-2fa1-41d2-883f-0016d3cca427']],
  ])('a cursor with %s is ignored (was a 500 from the SQL cast)', async (_name, value) => {
    const cursor = Buffer.from(JSON.stringify(value)).toString('base64url');
    const res = await ctx.app.inject({
      url: `/api/v1/receipts?cursor=${cursor}`,
      headers: { 'x-api-key': listKey },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveLength(3);
  });
});

describe('API key comparison is constant-time by design', () => {
  it('compares fixed-length sha256 digests with timingSafeEqual, whatever the secret', async () => {
    const crypto = await vi.importActual<typeof import('node:crypto')>('node:crypto');
    const timingSafeEqual = vi.fn(crypto.timingSafeEqual);
    vi.resetModules();
    vi.doMock('node:crypto', () => ({ ...crypto, default: crypto, timingSafeEqual }));
    try {
      const token = await import('../../src/auth/api-key-token.js');
      const secret = randomBytes(32).toString('base64url');
      const stored = token.hashSecret(secret);
      expect(token.secretMatches(secret, stored)).toBe(true);
      for (const other of ['', 'x', `${secret}x`, secret.slice(1), 'é'.repeat(5000)]) {
        expect(token.secretMatches(other, stored)).toBe(false);
      }
      // every comparison above went through timingSafeEqual on two 32-byte digests
      expect(timingSafeEqual).toHaveBeenCalledTimes(6);
      for (const [a, b] of timingSafeEqual.mock.calls) {
        expect((a as Buffer).length).toBe(32);
        expect((b as Buffer).length).toBe(32);
      }
    } finally {
      vi.doUnmock('node:crypto');
      vi.resetModules();
    }
  });

  it('never throws, for any presented secret or stored hash', () => {
    const stored = hashSecret('the real secret');
    expect(secretMatches('the real secret', stored)).toBe(true);
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.oneof(
          fc.constant(stored),
          fc.string({ maxLength: 130 }),
          fc.stringMatching(/^[0-9a-f]{0,130}$/),
        ),
        (secret, storedHash) => {
          expect(secretMatches(secret, storedHash)).toBe(
            secret === 'the real secret' && storedHash === stored,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('afterwards', () => {
  it('the service still answers valid requests', async () => {
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
  });
});

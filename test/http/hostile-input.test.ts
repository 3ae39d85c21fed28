import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validRequest } from '../helpers/ron.js';
import { useHostileApp } from './hostile/app.js';
import {
  anyBodyText,
  anyValue,
  badApiKey,
  badBase64,
  badReceiptId,
  contentType,
  endpoint,
  headerValue,
  keyedEndpoint,
  listQueryParam,
  logSize,
  nastyChar,
} from './hostile/arbitraries.js';
import { expectSafe, expectStillAnswering } from './hostile/invariants.js';
import {
  ciRequest,
  endpointNamed,
  ENDPOINTS,
  ID_ENDPOINTS,
  issuerHeaders,
  pathsOf,
  send as sendTo,
  setPath,
  valueAt,
  type Endpoint,
  type Send,
} from './hostile/requests.js';

/**
 * Hostile input against every endpoint (route-coverage.test.ts keeps the list complete), with an API key holding every scope so requests
 * get past authentication into parsing and validation. Whatever arrives: never a 5xx, every
 * non-2xx is an ErrorResponse (JSON with a string `error`), no stack trace or SQL in any body,
 * and the service keeps answering afterwards. Oversize, deeply nested and huge input, and the
 * regressions these properties found, are in hostile-limits.test.ts.
 */

const h = useHostileApp();
const send = (s: Send) => sendTo(h, s);

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
    const base = validRequest(h.notary);
    const paths = pathsOf(base);
    const verify = ENDPOINTS[0] as Endpoint;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), anyValue, async (path, value) => {
        const payload = JSON.stringify(setPath(base, path, value));
        expectSafe(
          await send({ endpoint: verify, payload }),
          `${path.join('.')} = ${JSON.stringify(value)}`,
        );
      }),
      { numRuns: 120 },
    );
  });

  it('one field of a valid CI request set to a wrong type or value (or removed)', async () => {
    const base = ciRequest();
    const paths = pathsOf(base);
    const ci = endpointNamed('ci');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), anyValue, async (path, value) => {
        const payload = JSON.stringify(
          setPath({ ...base, externalId: ciRequest().externalId }, path, value),
        );
        expectSafe(
          await send({ endpoint: ci, payload }),
          `${path.join('.')} = ${JSON.stringify(value)}`,
        );
      }),
      { numRuns: 60 },
    );
  });

  it('hostile characters in every string field of a valid RON or CI request', async () => {
    const ron = validRequest(h.notary);
    const ci = ciRequest();
    const stringPaths = (doc: unknown) =>
      pathsOf(doc).filter((p) => typeof valueAt(doc, p) === 'string');
    const targets = [
      ...stringPaths(ron).map((path) => ({ endpoint: ENDPOINTS[0] as Endpoint, doc: ron, path })),
      ...stringPaths(ci).map((path) => ({ endpoint: endpointNamed('ci'), doc: ci, path })),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.tuple(
          fc.string({ unit: 'grapheme', maxLength: 5 }),
          nastyChar,
          fc.string({ maxLength: 5 }),
        ),
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
    const base = validRequest(h.notary);
    const objects = [
      [],
      ...pathsOf(base).filter((p) => {
        const node = valueAt(base, p);
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
          const node = valueAt(doc, path) as Record<string, unknown>;
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
    const base = validRequest(h.notary);
    const verify = ENDPOINTS[0] as Endpoint;
    await fc.assert(
      fc.asyncProperty(badBase64, async (pdfBase64) => {
        const payload = JSON.stringify({ ...base, doc: { ...base.doc, pdfBase64 } });
        expectSafe(await send({ endpoint: verify, payload }), pdfBase64.slice(0, 80));
      }),
      { numRuns: 60 },
    );
  });
});

describe('hostile URLs', () => {
  it('bad receipt ids in the path (URL-encoded strings, near-uuids, bad escapes)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ID_ENDPOINTS), badReceiptId, async (e, id) => {
        expectSafe(await send({ endpoint: e, id }), `${e.name} ${id}`);
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary query strings on GET /receipts always list (never 400)', async () => {
    const list = endpointNamed('list');
    await fc.assert(
      fc.asyncProperty(fc.array(listQueryParam, { maxLength: 5 }), async (params) => {
        const query = params.map(([k, v]) => `${k}=${v}`).join('&');
        const res = await send({
          endpoint: { ...list, path: () => `/api/v1/receipts?${query}` },
          headers: { 'x-api-key': h.listKey },
        });
        expectSafe(res, query);
        expect(res.statusCode, `${query} -> ${res.body}`).toBe(200);
        expect(Array.isArray(res.json())).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary from/to on GET /log/consistency', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(logSize), fc.option(logSize), async (from, to) => {
        const query = [from === null ? '' : `from=${from}`, to === null ? '' : `to=${to}`].join(
          '&',
        );
        const e = { ...endpointNamed('consistency') };
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
  it('random x-api-key values are a 401 on every keyed endpoint, before anything else', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyedEndpoint,
        badApiKey(h.key),
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
    const body = JSON.stringify(validRequest(h.notary));
    await fc.assert(
      fc.asyncProperty(endpoint, contentType, async (e, type) => {
        const payload = e.name === 'ci' ? JSON.stringify(ciRequest()) : body;
        const res = await send({ endpoint: e, payload, headers: { 'content-type': type } });
        expectSafe(res, `${e.name} ${type}`);
      }),
      { numRuns: 100 },
    );
  });

  it('random issuer headers on revoke are a 401 (never a revocation)', async () => {
    const { ctx, key } = h;
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: validRequest(h.notary),
    });
    const id: string = issued.json().receiptId;
    const real = issuerHeaders(h.issuerPem, id);
    const revoke = endpointNamed('revoke');
    const header = (name: string) =>
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

describe('afterwards', () => {
  it('the service still answers valid requests', async () => {
    await expectStillAnswering(h);
  });
});

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { hashSecret, secretMatches } from '../../src/auth/api-key-token.js';
import { validRequest } from '../helpers/ron.js';
import { LIMIT, useHostileApp } from './hostile/app.js';
import { nest, nestingShape } from './hostile/arbitraries.js';
import { expectSafe, expectStillAnswering } from './hostile/invariants.js';
import {
  ciRequest,
  endpointNamed,
  ENDPOINTS,
  POST_ENDPOINTS,
  send as sendTo,
  type Endpoint,
  type Send,
} from './hostile/requests.js';

/**
 * Hostile input at the limits, against the same invariants as hostile-input.test.ts: deeply
 * nested and huge input, oversize bodies (BODY_LIMIT_BYTES), the regressions these properties
 * found, and the API key comparison. The service must still answer valid requests afterwards
 * (checked before the app is closed).
 */

const h = useHostileApp({ beforeClose: expectStillAnswering });
const send = (s: Send) => sendTo(h, s);

describe('hostile bodies', () => {
  it('deep nesting (1k to 10k levels of arrays and objects), as raw text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_ENDPOINTS),
        nestingShape,
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
    const ci = endpointNamed('ci');
    const list = endpointNamed('list');
    const receipt = endpointNamed('receipt');
    const revoke = endpointNamed('revoke');
    const targets = [
      (s: string) =>
        send({
          endpoint: verify,
          payload: JSON.stringify({ ...validRequest(h.notary), bundleId: s }),
        }),
      (s: string) => {
        const r = validRequest(h.notary);
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
          const res = await send({ endpoint: e, payload, app: h.small });
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
            app: h.small,
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

describe('regressions found by these properties', () => {
  const post = (url: string, payload: string) =>
    h.ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': h.key, 'content-type': 'application/json' },
      payload,
    });

  it('U+0000 in a request string is a 400 naming the field (was a 500: jsonb cannot hold it)', async () => {
    const res = await post(
      '/api/v1/verify',
      JSON.stringify({ ...validRequest(h.notary), bundleId: 'b\u0000' }),
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
    const request = validRequest(h.notary);
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
    const res = await h.ctx.app.inject({
      url: `/api/v1/receipts?cursor=${cursor}`,
      headers: { 'x-api-key': h.listKey },
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

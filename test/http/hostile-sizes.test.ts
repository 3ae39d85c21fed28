import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.js';
import { validRequest } from '../helpers/ron.js';
import { useHostileApp, type HostileApp } from './hostile/app.js';
import { expectSafe, expectStillAnswering } from './hostile/invariants.js';
import { ciRequest, pathsOf, setPath, valueAt } from './hostile/requests.js';

/**
 * Every string field of both issuing endpoints, set to long strings, many tokens, long
 * tokens and many lines, up to twice the largest field limit. Whatever is sent: the safe-answer
 * invariants hold, and every receipt that gets issued renders as a PDF and re-verifies.
 */

const h = useHostileApp({ beforeClose: expectStillAnswering });

/** The shapes that made the renderer and the name checks super-linear before. */
const sized = fc
  .tuple(
    fc.constantFrom('long', 'tokens', 'token', 'lines', 'mixed'),
    fc.integer({ min: 1, max: 2 * LIMITS.sealPayload }),
  )
  .map(([shape, n]) => {
    switch (shape) {
      case 'long':
        return 'abc def '.repeat(Math.ceil(n / 8)).slice(0, n);
      case 'tokens':
        return 'a '.repeat(Math.ceil(n / 2)).slice(0, n);
      case 'token':
        return 'x'.repeat(n);
      case 'lines':
        return 'a\n'.repeat(Math.ceil(n / 2)).slice(0, n);
      default:
        return `J${'é'.repeat(n % 50)} ${'Ω'.repeat(n % 37)} ${'y'.repeat(n)}`.slice(0, n);
    }
  });

/** Every path of `doc` whose value is a string. */
const stringPaths = (doc: unknown) =>
  pathsOf(doc).filter((p) => typeof valueAt(doc, p) === 'string');

async function post(url: string, payload: unknown): Promise<LightMyRequestResponse> {
  return h.ctx.app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': h.key, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

/** A 200 left a receipt: its PDF renders and it re-verifies. */
async function expectUsable(app: HostileApp, receiptId: string, what: string): Promise<void> {
  const headers = { 'x-api-key': app.key };
  const pdf = await app.ctx.app.inject({ url: `/api/v1/receipt/${receiptId}/pdf`, headers });
  expect(pdf.statusCode, what).toBe(200);
  expect(pdf.rawPayload.subarray(0, 5).toString(), what).toBe('%PDF-');
  const status = await app.ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${receiptId}/verify`,
    headers,
  });
  expect(status.statusCode, what).toBe(200);
  expect(status.json(), what).toMatchObject({ integrityVerified: true, signatureVerified: true });
}

describe('long strings, many tokens, long tokens in every field', () => {
  it('of a RON request', async () => {
    const base = validRequest(h.notary);
    let issued = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...stringPaths(base)), sized, async (path, value) => {
        const what = `${path.join('.')} = ${value.length} chars`;
        const res = await post('/api/v1/verify', setPath(base, path, value));
        expectSafe(res, what);
        if (res.statusCode !== 200) return;
        issued += 1;
        await expectUsable(h, res.json().receiptId, what);
      }),
      { numRuns: 60 },
    );
    expect(issued).toBeGreaterThan(0);
  });

  it('of a CI request', async () => {
    const base = ciRequest();
    let issued = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...stringPaths(base)), sized, async (path, value) => {
        const what = `${path.join('.')} = ${value.length} chars`;
        const request = setPath({ ...base, externalId: ciRequest().externalId }, path, value);
        const res = await post('/api/v1/verifications/ci', request);
        expectSafe(res, what);
        if (res.statusCode !== 200) return;
        issued += 1;
        await expectUsable(h, res.json().receiptId, what);
      }),
      { numRuns: 40 },
    );
    expect(issued).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '@verification-receipts/verify';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { jwksKeys } from '../verifier/helpers.js';
import { ciRequest } from './hostile/requests.js';

/** The service with its sealer on at the default batching window (the quiet-log interval far off). */
let ctx: TestContext;
let key: string;
let notary: Notary;
/** The service with no in-process sealer: a wait always runs out. */
let idle: TestContext;
let idleKey: string;
let idleNotary: Notary;

beforeAll(async () => {
  ctx = await createTestContext({ ANCHOR_INTERVAL_MS: '60000' });
  key = await ctx.apiKey(['verify', 'read']);
  notary = await registerNotary(ctx.repos);
  idle = await createTestContext();
  idleKey = await idle.apiKey(['verify', 'read']);
  idleNotary = await registerNotary(idle.repos);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await idle?.close();
});

const issue = (prefer?: string, on = ctx, apiKey = key, n = notary) =>
  on.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': apiKey, ...(prefer === undefined ? {} : { prefer }) },
    payload: validRequest(n),
  });

describe('POST /verify with Prefer: wait=N', () => {
  it('answers once the receipt is in a signed checkpoint, with a logEntry that verifies', async () => {
    const res = await issue('wait=5');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['preference-applied']).toBe('wait=5');
    const answer = res.json();
    expect(answer.anchor.status).toBe('ANCHORED');
    expect(answer.logEntry).toMatchObject({ logIndex: answer.anchor.logIndex });
    // the answer's logEntry in the receipt's bundle: the offline verifier checks the proof
    const bundle = (
      await ctx.app.inject({
        url: `/api/v1/receipt/${answer.receiptId}/bundle`,
        headers: { 'x-api-key': key },
      })
    ).json();
    const verdict = verifyBundle(
      { ...bundle, logEntry: answer.logEntry },
      { trust: { keys: await jwksKeys(ctx) } },
    );
    const steps = Object.fromEntries(verdict.steps.map((s) => [s.id, s.status]));
    expect(steps).toMatchObject({ 'log-inclusion': 'PASS', checkpoint: 'PASS' });
    expect(verdict.authentic).toBe(true);
    // a proof for another leaf index does not verify: the check is real
    const moved = { ...answer.logEntry, logIndex: answer.logEntry.logIndex + 1 };
    const wrong = verifyBundle(
      { ...bundle, logEntry: moved },
      { trust: { keys: await jwksKeys(ctx) } },
    );
    expect(wrong.steps.find((s) => s.id === 'log-inclusion')?.status).toBe('FAIL');
  });

  it('caps the wait at 10 s and says so', async () => {
    const res = await issue('respond-async, wait=3600');
    expect(res.headers['preference-applied']).toBe('wait=10');
    expect(res.json().logEntry).toBeDefined();
  });

  it('without the header, or with one it cannot read, answers at once without logEntry', async () => {
    for (const prefer of [undefined, 'wait', 'wait=soon', 'wait=-2', 'wait=0', 'handling=strict']) {
      const res = await issue(prefer);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['preference-applied'], prefer).toBeUndefined();
      expect(res.json().logEntry, prefer).toBeUndefined();
      expect(res.json().anchor.status, prefer).toBe('PENDING');
    }
  });

  it('when the time runs out first, answers as without it: no logEntry, PENDING, never an error', async () => {
    const started = Date.now();
    const res = await issue('wait=1', idle, idleKey, idleNotary);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['preference-applied']).toBe('wait=1');
    expect(res.json().logEntry).toBeUndefined();
    expect(res.json().anchor).toEqual({
      status: 'PENDING',
      note: 'not in a signed checkpoint within the 1 s asked (Prefer: wait=1); POST /anchor/{receiptId} later for the inclusion proof',
    });
  });

  it('refuses a Prefer header longer than 1024 characters with the ErrorResponse', async () => {
    const res = await issue(`wait=1, x="${'a'.repeat(1024)}"`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed' });
  });

  it('is not applied to a receipt that never enters the log (no proof artifact)', async () => {
    const body = validRequest(notary);
    delete body.doc.pdfBase64;
    const started = Date.now();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key, prefer: 'wait=5' },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.headers['preference-applied']).toBeUndefined();
    expect(res.json().logEntry).toBeUndefined();
  });
});

describe('POST /verifications/ci with Prefer: wait=N', () => {
  it('carries the logEntry once the receipt is in a signed checkpoint; without it, none', async () => {
    const post = (prefer?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/verifications/ci',
        headers: { 'x-api-key': key, ...(prefer ? { prefer } : {}) },
        payload: ciRequest(),
      });
    const plain = await post();
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().logEntry).toBeUndefined();
    expect(plain.headers['preference-applied']).toBeUndefined();
    const waited = await post('wait=5');
    expect(waited.statusCode, waited.body).toBe(200);
    expect(waited.headers['preference-applied']).toBe('wait=5');
    expect(waited.json().logEntry).toMatchObject({
      checkpoint: expect.stringContaining('\n\n\u2014 '),
      inclusionProof: expect.any(Array),
    });
  });
});

import { describe, expect, it } from 'vitest';
import { checkSeal } from '../../../src/receipts/checks/ron-seal.js';
import { context, newKeyPair, NOTARY, NOW, profile, request, sealFor, sha256 } from './helpers.js';

describe('ron.seal', () => {
  it('passes a SIM-ECDSA-v1 seal by the registered key whose claims match the request', async () => {
    const outcome = checkSeal(await context());
    expect(outcome).toMatchObject({ checkId: 'ron.seal', status: 'PASS' });
    expect(outcome.details).toContain('ES256 signature valid');
  });

  it('fails notary_not_registered when the notary has no registry record', async () => {
    expect(checkSeal(await context({ notary: undefined }))).toMatchObject({
      status: 'FAIL',
      reason: 'notary_not_registered',
    });
  });

  it('warns seal_unverifiable for an opaque seal, and fails it under the strict profile', async () => {
    const opaque = request((r) => {
      delete r.ron.sealScheme;
      r.ron.sealPayload = 'vendor-specific-blob';
    });
    expect(checkSeal(await context({ request: opaque }))).toMatchObject({
      status: 'WARN',
      reason: 'seal_unverifiable',
    });
    const strict = await context({ request: opaque, profile: profile('ron-strict-v1') });
    expect(checkSeal(strict)).toMatchObject({ status: 'FAIL', reason: 'seal_unverifiable' });
  });

  it('fails seal_invalid for a seal signed by another key, with the verifier reason', async () => {
    const forged = request((r) => {
      r.ron.sealPayload = sealFor({}, newKeyPair().privateKeyPem);
    });
    const outcome = checkSeal(await context({ request: forged }));
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'seal_invalid' });
    expect(outcome.details).toContain('bad_signature');
  });

  it('fails seal_invalid for garbage in sealPayload', async () => {
    const garbage = request((r) => {
      r.ron.sealPayload = 'not.a.jws';
    });
    expect(checkSeal(await context({ request: garbage }))).toMatchObject({
      status: 'FAIL',
      reason: 'seal_invalid',
    });
  });

  it.each([
    ['notaryId', { notaryId: 'TX-7654321' }],
    ['commissionState', { commissionState: 'FL' }],
    ['docHash', { docHash: sha256(Buffer.from('another document')) }],
  ])(
    'fails seal_claim_mismatch when the %s claim differs from the request',
    async (claim, change) => {
      const mismatched = request((r) => {
        r.ron.sealPayload = sealFor(change);
      });
      const outcome = checkSeal(await context({ request: mismatched }));
      expect(outcome).toMatchObject({ status: 'FAIL', reason: 'seal_claim_mismatch' });
      expect(outcome.details).toContain(`claim ${claim}`);
    },
  );

  it('fails seal_issued_in_future when iat is beyond the clock skew', async () => {
    const iat = Math.floor(NOW.getTime() / 1000) + 10 * 60;
    const future = request((r) => {
      r.ron.sealPayload = sealFor({ iat });
    });
    expect(checkSeal(await context({ request: future }))).toMatchObject({
      status: 'FAIL',
      reason: 'seal_issued_in_future',
    });
    const withinSkew = request((r) => {
      r.ron.sealPayload = sealFor({ iat: Math.floor(NOW.getTime() / 1000) + 60 });
    });
    expect(checkSeal(await context({ request: withinSkew })).status).toBe('PASS');
  });

  it('fails seal_invalid when the registered key is unusable', async () => {
    const broken = { ...NOTARY, publicKeyPem: 'garbage' };
    const outcome = checkSeal(await context({ notary: broken }));
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'seal_invalid' });
    expect(outcome.details).toContain('invalid_public_key');
  });
});

import { describe, expect } from 'vitest';
import { verifyBundle } from '@verification-receipts/verify';
import { BUNDLE_MEDIA_TYPE } from '@verification-receipts/verify/internals';
import { it } from '../helpers/fixtures.js';
import { minimalRequest } from '../helpers/requests.js';
import { anchoredBundle, jwksKeys } from '../verifier/helpers.js';

describe('GET /api/v1/receipt/:id/bundle', () => {
  it('serves the bundle media type; before anchoring it verifies without log evidence', async ({
    ctx,
    key,
  }) => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: minimalRequest(),
    });
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${issued.json().receiptId}/bundle`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode).toBe(200);
    // Fastify writes the parameter quoted (version="1") and adds the charset: the same media type
    expect(res.headers['content-type']).toMatch(
      /^application\/vnd\.verification-receipt\.bundle\+json; ?version="?1"?(;|$)/,
    );
    const bundle = res.json();
    expect(bundle.mediaType).toBe(BUNDLE_MEDIA_TYPE);
    expect(bundle.logEntry).toBeUndefined();
    const verdict = verifyBundle(bundle, { trust: { keys: await jwksKeys(ctx) } });
    expect(verdict.authentic).toBe(true);
    expect(verdict.steps.map((s) => [s.id, s.status])).toEqual([
      ['format', 'PASS'],
      ['canonical-form', 'PASS'],
      ['receipt-hash', 'PASS'],
      ['key-id', 'PASS'],
      ['key-trust', 'PASS'],
      ['signature', 'PASS'],
      ['log-inclusion', 'SKIP'],
      ['checkpoint', 'SKIP'],
    ]);
  });

  it('once anchored carries the inclusion proof and signed checkpoint, and every step passes', async ({
    ctx,
    key,
  }) => {
    const bundle = await anchoredBundle(ctx, key);
    const verdict = verifyBundle(bundle, { trust: { keys: await jwksKeys(ctx) } });
    expect(verdict.steps.filter((s) => s.status !== 'PASS' && s.id !== 'witnesses')).toEqual([]);
    expect(verdict.authentic).toBe(true);
    // without a trust root nothing is authentic: a bundle carries a key of its author's choosing
    const unpinned = verifyBundle(bundle, { trust: {} });
    expect(unpinned.authentic).toBe(false);
    expect(unpinned.failedStep).toBe('key-trust');
    const insecure = verifyBundle(bundle, { trust: { insecureIgnoreTrust: true } });
    expect(insecure.authentic).toBe(true);
    expect(insecure.insecure).toBe(true);
    expect(insecure.steps.find((s) => s.id === 'key-trust')?.status).toBe('WARN');
  });

  it('is 404 for another tenant and needs the read scope', async ({ ctx, key }) => {
    const bundle = await anchoredBundle(ctx, key);
    const id = (bundle.receipt as { receiptId: string }).receiptId;
    const other = await ctx.apiKey(['read'], 'tenant-b');
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': other },
    });
    expect(res.statusCode).toBe(404);
    const verifyOnly = await ctx.apiKey(['verify']);
    const denied = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': verifyOnly },
    });
    expect(denied.statusCode).toBe(403);
  });
});

describe('GET /api/v1/receipt/:id/attestation without PUBLIC_URL', () => {
  it('names the verifier and the receipt by URN, not by a path only this machine reaches', async ({
    ctx,
    key,
  }) => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: minimalRequest(),
    });
    const id = issued.json<{ receiptId: string }>().receiptId;
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/attestation`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode, res.body).toBe(200);
    const payload = res.json<{ dsseEnvelope: { payload: string } }>().dsseEnvelope.payload;
    const { predicate } = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as {
      predicate: { verifier: { id: string }; inputAttestations: { uri: string }[] };
    };
    expect(predicate.verifier.id).toBe('urn:verification-receipt-service');
    expect(predicate.inputAttestations[0]?.uri).toBe(
      `urn:verification-receipt-service/api/v1/receipt/${id}`,
    );
  });
});

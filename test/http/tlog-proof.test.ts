import { describe, expect } from 'vitest';
import { parseLogPolicy } from '../../packages/verify/src/log/policy.js';
import { parseTlogProof } from '../../packages/verify/src/log/tlog-proof.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { it } from '../helpers/fixtures.js';
import { minimalRequest } from '../helpers/requests.js';
import { issueValidRon } from '../helpers/ron.js';

/**
 * GET /api/v1/receipt/{id}/tlog-proof (c2sp.org/tlog-proof) and GET /log/policy
 * (c2sp.org/tlog-policy): status codes, media type, and files the verifier package reads.
 */

const proofOf = (ctx: TestContext, id: string, apiKey: string) =>
  ctx.app.inject({ url: `/api/v1/receipt/${id}/tlog-proof`, headers: { 'x-api-key': apiKey } });

describe('GET /api/v1/receipt/{receiptId}/tlog-proof', () => {
  it('answers 409 until the receipt is in a signed checkpoint, then the proof file', async ({
    ctx,
    key,
  }) => {
    const id: string = (await issueValidRon(ctx, key)).json().receiptId;
    const pending = await proofOf(ctx, id, key);
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({
      error: 'proof_artifact_required_for_anchor',
      details: { anchorStatus: 'PENDING' },
    });
    expect(pending.json().message).toContain('not in a signed checkpoint yet');
    await ctx.app.services.anchoring.sealAll();
    const res = await proofOf(ctx, id, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const parsed = parseTlogProof(res.body);
    if (!parsed.ok) throw new Error(parsed.reason);
    const anchor = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/anchor/${id}`,
      headers: { 'x-api-key': await ctx.apiKey(['anchor']) },
    });
    expect(parsed.proof.index).toBe(anchor.json().logIndex);
    expect(parsed.proof.checkpoint).toBe(anchor.json().checkpoint);
    expect(parsed.proof.hashes.map((h) => `sha256:${Buffer.from(h).toString('hex')}`)).toEqual(
      anchor.json().inclusionProof,
    );
  });

  it('answers 409 proof_artifact_required_for_anchor for a receipt without a proof artifact', async ({
    ctx,
    key,
  }) => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: minimalRequest(),
    });
    await ctx.app.services.anchoring.sealAll();
    const res = await proofOf(ctx, issued.json().receiptId, key);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('proof_artifact_required_for_anchor');
  });

  it('answers 404 for an unknown receipt and for another tenant', async ({ ctx, key }) => {
    const id: string = (await issueValidRon(ctx, key)).json().receiptId;
    await ctx.app.services.anchoring.sealAll();
    const other = await ctx.apiKey(['read'], 'tenant-b');
    expect((await proofOf(ctx, id, other)).json().error).toBe('receipt_not_found');
    const unknown = await proofOf(ctx, '00000000-0000-4000-8000-000000000000', key);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('receipt_not_found');
  });

  it('needs a key with the read scope', async ({ ctx, key }) => {
    const id: string = (await issueValidRon(ctx, key)).json().receiptId;
    expect((await ctx.app.inject({ url: `/api/v1/receipt/${id}/tlog-proof` })).statusCode).toBe(
      401,
    );
    expect((await proofOf(ctx, id, await ctx.apiKey(['verify']))).statusCode).toBe(403);
  });
});

describe('GET /log/policy', () => {
  it('is public, plain text, and pins the key /log/vkey serves, with quorum none', async ({
    ctx,
  }) => {
    const res = await ctx.app.inject({ url: '/log/policy' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const vkey = (await ctx.app.inject({ url: '/log/vkey' })).body.trim();
    expect(res.body).toBe(`log ${vkey}\nquorum none\n`);
    const parsed = parseLogPolicy(res.body);
    expect(parsed.ok && parsed.log.origin).toBe(ctx.app.services.anchoring.origin);
  });

  it('needs a read key when LOG_PUBLIC=false, and is 404 without a signing key', async () => {
    const closed = await createTestContext({ LOG_PUBLIC: 'false' });
    const unsigned = await createTestContext({ SIGNING_DISABLED: 'true' });
    try {
      expect((await closed.app.inject({ url: '/log/policy' })).statusCode).toBe(401);
      const read = await closed.apiKey(['read']);
      const res = await closed.app.inject({ url: '/log/policy', headers: { 'x-api-key': read } });
      expect(res.statusCode).toBe(200);
      expect((await unsigned.app.inject({ url: '/log/policy' })).statusCode).toBe(404);
    } finally {
      await Promise.all([closed.close(), unsigned.close()]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../src/auth/api-key-token.js';
import { verifyStatus } from '@verification-receipts/verify';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { jwksKeys } from '../verifier/helpers.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { minimalRequest } from '../helpers/requests.js';

let ctx: TestContext;
let key: string;
const issuerPem = ed25519Pem();
beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_MAX: '20' });
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  await registerIssuer(ctx.repos, issuerPem);
});
afterAll(async () => ctx.close());

async function issue(): Promise<{ receiptId: string; receiptHash: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: minimalRequest(),
  });
  return res.json();
}

const status = (hash: string, remoteAddress = '192.0.2.10') =>
  ctx.app.inject({ url: `/status/${hash}`, remoteAddress });

describe('GET /status/{receiptHash}', () => {
  it('needs no key and answers a statement signed with a JWKS key, saying nothing of the content', async () => {
    const { receiptHash } = await issue();
    const res = await status(receiptHash);
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.statement).sort()).toEqual([
      'anchor',
      'producedAt',
      'receiptHash',
      'status',
      'type',
    ]);
    expect(doc.statement).toMatchObject({
      receiptHash,
      status: 'active',
      anchor: { status: 'PENDING' },
    });
    const keys = await jwksKeys(ctx);
    const { steps, current } = verifyStatus(doc, { receiptHash, keys });
    expect(steps.map((s) => [s.id, s.status])).toEqual([
      ['status-signature', 'PASS'],
      ['status', 'PASS'],
      ['status-age', 'PASS'],
      ['log-consistency', 'SKIP'],
    ]);
    expect(current.state).toBe('active');
    // a statement about another receipt, or with an edited status, does not verify
    const other = `sha256:${'0'.repeat(64)}`;
    expect(verifyStatus(doc, { receiptHash: other, keys }).steps[0]?.status).toBe('FAIL');
    const edited = { ...doc, statement: { ...doc.statement, status: 'revoked' } };
    expect(verifyStatus(edited, { receiptHash, keys }).steps[0]?.status).toBe('FAIL');
  });

  it('reflects a revocation: when and by which issuer', async () => {
    const { receiptId, receiptHash } = await issue();
    await revokeVia(ctx.app, key, receiptId, issuerPem);
    const doc = (await status(receiptHash)).json();
    expect(doc.statement).toMatchObject({ status: 'revoked', revokedBy: 'escrow-co' });
    expect(Date.parse(doc.statement.revokedAt)).toBeGreaterThan(0);
    const { steps, current } = verifyStatus(doc, { receiptHash, keys: await jwksKeys(ctx) });
    expect(steps[1]).toMatchObject({ id: 'status', status: 'FAIL' });
    expect(current).toMatchObject({ state: 'revoked', revokedBy: 'escrow-co' });
  });

  it('unknown hash 404, malformed hash 400, both as ErrorResponse', async () => {
    const unknown = await status(`sha256:${'a'.repeat(64)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('receipt_not_found');
    // no key is involved: the answer speaks of the hash, not of what a key may see
    expect(unknown.json().message).toBe('no receipt with that hash is known to this service');
    for (const bad of ['abc', `sha256:${'A'.repeat(64)}`, `${'a'.repeat(64)}`]) {
      const res = await status(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe('validation_failed');
    }
  });

  it('is rate limited per client address, whatever x-api-key says', async () => {
    const { receiptHash } = await issue();
    const codes: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await ctx.app.inject({
        url: `/status/${receiptHash}`,
        remoteAddress: '198.51.100.77',
        headers: { 'x-api-key': mintToken().token },
      });
      codes.push(res.statusCode);
    }
    expect(codes.filter((c) => c === 200)).toHaveLength(20);
    expect(codes.slice(20)).toEqual(Array(5).fill(429));
    expect((await status(receiptHash, '198.51.100.78')).statusCode).toBe(200);
  });
});

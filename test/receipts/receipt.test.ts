import { createHash, createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/receipts/keyring.js';
import { buildReceipt, type ReceiptDraft } from '../../src/receipts/receipt.js';
import { createSigner } from '../../src/receipts/signer.js';
import type { StoredReceipt } from '../../src/receipts/types.js';
import { verifyReceipt } from '../../src/receipts/verify.js';
import { ed25519Pem } from '../helpers/context.js';
import { rfc8032Test1Pem } from '../helpers/keys.js';

/** Receipt building, the key ring and later verification, without a store. */
const draft: ReceiptDraft = {
  receiptId: '2f1c7e4a-9b3d-4c58-8e21-6a0f5d9b7c13',
  createdAt: '2026-01-15T10:30:00.000Z',
  policyProfile: 'ron-standard-v1',
  inputsCommitment: `sha256:${'1'.repeat(64)}`,
  subject: {
    kind: 'ron-document',
    bundleId: 'B-1',
    transactionType: 'deed-transfer',
    docHash: `sha256:${'2'.repeat(64)}`,
    notaryId: 'N-1',
    property: { parcelId: 'P-1', county: 'Travis', state: 'TX' },
  },
  outcomes: [
    { checkId: 'doc.hash', status: 'PASS', details: 'ok' },
    { checkId: 'ron.seal', status: 'WARN', details: 'opaque', reason: 'opaque_seal' },
  ],
};
const signer = createSigner(rfc8032Test1Pem());
const ring = new KeyRing([signer.publicJwk]);
const row = { id: draft.receiptId, createdAt: new Date(draft.createdAt) };

describe('buildReceipt', () => {
  it('decides, hashes the RFC 8785 bytes and signs those same bytes', () => {
    const { receipt, canonical } = buildReceipt(draft, signer);
    expect(receipt.decision).toBe('FLAG');
    expect(receipt.reasons).toEqual(['opaque_seal']);
    expect(receipt.checks).toEqual([
      { checkId: 'doc.hash', status: 'PASS', details: 'ok' },
      { checkId: 'ron.seal', status: 'WARN', details: 'opaque' },
    ]);
    expect(receipt.receiptHash).toBe(
      `sha256:${createHash('sha256').update(canonical).digest('hex')}`,
    );
    const key = createPublicKey({ key: { ...signer.publicJwk }, format: 'jwk' });
    const sig = Buffer.from(receipt.receiptSignature?.signature ?? '', 'base64url');
    expect(verify(null, Buffer.from(canonical), key, sig)).toBe(true);
    expect(receipt.receiptSignature?.kid).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('is deterministic and unsigned without a signer', () => {
    expect(buildReceipt(draft, signer)).toEqual(buildReceipt(draft, signer));
    expect(buildReceipt(draft, undefined).receipt.receiptSignature).toBeUndefined();
  });
});

describe('KeyRing', () => {
  const { receipt, canonical } = buildReceipt(draft, signer);
  const bytes = new TextEncoder().encode(canonical);
  const sig = receipt.receiptSignature?.signature ?? '';

  it('verifies by kid, and names an unknown kid', () => {
    expect(ring.check(signer.kid, bytes, sig)).toEqual({ status: 'verified' });
    expect(ring.check('nope', bytes, sig).status).toBe('unknown-kid');
    expect(ring.has(signer.kid)).toBe(true);
  });

  it('refuses every non-canonical spelling of a valid signature', () => {
    const spellings = [
      `${sig}==`,
      `${sig.slice(0, 5)} ${sig.slice(5)}`,
      sig.replaceAll('-', '+').replaceAll('_', '/'),
      `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
    ].filter((s) => s !== sig);
    for (const s of spellings) expect(ring.check(signer.kid, bytes, s).status, s).toBe('invalid');
  });

  it('refuses a signature by another key under this kid', () => {
    const other = buildReceipt(draft, createSigner(ed25519Pem())).receipt.receiptSignature;
    expect(ring.check(signer.kid, bytes, other?.signature ?? '').status).toBe('invalid');
  });
});

describe('verifyReceipt', () => {
  const { receipt } = buildReceipt(draft, signer);
  const check = (r: StoredReceipt, options: { revoked?: boolean; row?: typeof row } = {}) =>
    verifyReceipt({
      receipt: r,
      row: options.row ?? row,
      keyRing: ring,
      revoked: options.revoked ?? false,
      proofVerified: false,
    });

  it('an untouched receipt verifies', () => {
    expect(check(receipt)).toMatchObject({
      verified: true,
      integrityVerified: true,
      signatureStatus: 'verified',
    });
  });

  it('a changed field, a changed hash, another row or time, a revocation: not verified', () => {
    expect(check({ ...receipt, decision: 'ALLOW' })).toMatchObject({
      verified: false,
      integrityVerified: false,
    });
    expect(check({ ...receipt, receiptHash: `sha256:${'0'.repeat(64)}` }).integrityVerified).toBe(
      false,
    );
    expect(
      check(receipt, { row: { ...row, id: '00000000-0000-4000-8000-000000000000' } })
        .integrityVerified,
    ).toBe(false);
    expect(check(receipt, { row: { ...row, createdAt: new Date(0) } }).integrityVerified).toBe(
      false,
    );
    expect(check(receipt, { revoked: true })).toMatchObject({
      verified: false,
      revoked: true,
      integrityVerified: true,
    });
  });

  it('an unknown kid and an unsigned receipt say so', () => {
    const sig = receipt.receiptSignature as NonNullable<StoredReceipt['receiptSignature']>;
    expect(check({ ...receipt, receiptSignature: { ...sig, kid: 'x' } }).signatureStatus).toBe(
      'unknown-kid',
    );
    const unsigned = buildReceipt(draft, undefined).receipt;
    expect(check(unsigned)).toMatchObject({
      verified: false,
      signatureStatus: 'legacy-unsigned',
      receiptSignature: null,
    });
  });
});

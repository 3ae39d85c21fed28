import { createHash } from 'node:crypto';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import { createPqSigner } from '../../src/receipts/pq-signer.js';

/**
 * The ML-DSA-44 receipt signer: deterministic, so a receipt served again carries the same bytes,
 * and the signature it remembers is the one a fresh signer computes.
 */
const seed = new Uint8Array(32).fill(7);

describe('createPqSigner', () => {
  it('a repeated message gets the signature a fresh signer of the same seed computes', () => {
    const signer = createPqSigner(seed);
    const message = new TextEncoder().encode('{"receiptId":"x"}');
    const first = signer.sign(message);
    const again = signer.sign(message);
    const fresh = createPqSigner(seed).sign(message);
    expect(Buffer.from(again)).toEqual(Buffer.from(first));
    expect(Buffer.from(fresh)).toEqual(Buffer.from(first));
    const pub = Buffer.from(signer.publicJwk.pub, 'base64url');
    expect(ml_dsa44.verify(first, message, pub)).toBe(true);
    const other = signer.sign(new TextEncoder().encode('{"receiptId":"y"}'));
    expect(Buffer.from(other)).not.toEqual(Buffer.from(first));
    expect(ml_dsa44.verify(other, message, pub)).toBe(false);
  });

  it('publishes an AKP key whose kid is its RFC 7638 thumbprint over alg, kty and pub', () => {
    const { publicJwk } = createPqSigner(seed);
    expect(publicJwk).toMatchObject({ kty: 'AKP', alg: 'ML-DSA-44', use: 'sig' });
    expect(Buffer.from(publicJwk.pub, 'base64url')).toHaveLength(1312);
    // RFC 7638: the required members in lexicographic order, no whitespace, SHA-256, base64url
    const members = JSON.stringify({ alg: 'ML-DSA-44', kty: 'AKP', pub: publicJwk.pub });
    expect(publicJwk.kid).toBe(createHash('sha256').update(members).digest('base64url'));
    expect(() => createPqSigner(new Uint8Array(31))).toThrow(/32 bytes/);
  });
});

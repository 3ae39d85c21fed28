import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jcs } from '../../src/evidence/primitives.js';
import { canonicalJson, canonicalReceipt, sha256Digest } from '../../src/receipts/canonical.js';
import type { StoredReceipt } from '../../src/receipts/types.js';

/**
 * RFC 8785 (JCS) against the published test vectors of its reference implementation
 * (github.com/cyberphone/json-canonicalization, testdata/, commit 19d51d7), for the issuing side
 * (src/receipts/canonical.ts) and the offline verifier (src/evidence), byte for byte.
 */
const dir = path.resolve(import.meta.dirname, '../fixtures/rfc8785');
const vectors = fs.readdirSync(path.join(dir, 'input')).sort();

describe('RFC 8785 published vectors', () => {
  it('has the six vector files', () => {
    expect(vectors).toEqual([
      'arrays.json',
      'french.json',
      'structures.json',
      'unicode.json',
      'values.json',
      'weird.json',
    ]);
  });

  for (const name of vectors) {
    it(name, () => {
      const input = JSON.parse(fs.readFileSync(path.join(dir, 'input', name), 'utf8'));
      const expected = fs.readFileSync(path.join(dir, 'output', name));
      expect(Buffer.from(canonicalJson(input), 'utf8')).toEqual(expected);
      expect(Buffer.from(jcs(input) ?? '', 'utf8')).toEqual(expected);
    });
  }

  it('serialises numbers as ECMAScript does (RFC 8785 §3.2.2.3 examples)', () => {
    const cases: [number, string][] = [
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [-0, '0'],
      // eslint-disable-next-line no-loss-of-precision -- the RFC's own example literal
      [333333333.33333329, '333333333.3333333'],
      [1e30, '1e+30'],
      [4.5, '4.5'],
      [0.002, '0.002'],
      [1e-27, '1e-27'],
      [9007199254740992, '9007199254740992'],
      [5e-324, '5e-324'],
    ];
    for (const [value, text] of cases) expect(canonicalJson(value), text).toBe(text);
  });

  it('refuses what JSON cannot represent', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson(Number.POSITIVE_INFINITY)).toThrow();
    expect(jcs(Number.NaN)).toBeUndefined();
  });
});

describe('the canonical receipt', () => {
  it('leaves out receiptHash and receiptSignature, and its hash is the sha256 of those bytes', () => {
    const receipt = {
      receiptVersion: '1.0',
      receiptId: 'r',
      decision: 'ALLOW',
      receiptHash: 'sha256:x',
      receiptSignature: { alg: 'EdDSA', kid: 'k', signature: 's' },
    } as unknown as StoredReceipt;
    const text = canonicalReceipt(receipt);
    expect(text).toBe('{"decision":"ALLOW","receiptId":"r","receiptVersion":"1.0"}');
    expect(sha256Digest(text)).toBe(
      `sha256:${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')}`,
    );
  });
});

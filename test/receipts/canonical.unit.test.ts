import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { jcs } from '@verification-receipts/verify/log';
import { canonicalJson, canonicalReceipt, sha256Digest } from '../../src/receipts/canonical.js';
import type { StoredReceipt } from '../../src/receipts/types.js';
import { prng } from '../helpers/prng.js';

/**
 * RFC 8785 (JCS) against the published test vectors of its reference implementation
 * (github.com/cyberphone/json-canonicalization, testdata/, commit 19d51d7), for the issuing side
 * (src/receipts/canonical.ts) and the offline verifier (packages/verify), byte for byte.
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

/** Random JSON values: every kind, odd numbers, keys and strings across the UTF-16 range. */
function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  const text = () => {
    const pool = [
      'a',
      'B',
      'é',
      '\u0000',
      '\n',
      '"',
      '\\',
      '\u007f',
      '\u2028',
      '€',
      '😀',
      '\ufb33',
      'ö',
      '\ud83d\ude00',
      // digits: keys such as "10" and "9" are array indices, which Object.keys lists first
      '1',
      '9',
      '0',
    ];
    let out = '';
    for (let n = Math.floor(next() * 6); n > 0; n -= 1)
      out += pool[Math.floor(next() * pool.length)];
    return out;
  };
  const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, 2 ** 53, 333333333.3333333, -4.5e300];
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return next() < 0.5
        ? numbers[Math.floor(next() * numbers.length)]
        : (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
    case 3:
    case 4:
      return text();
    case 5:
      return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
    default:
      // now and then more members than the insertion sort takes (16)
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * (next() < 0.1 ? 30 : 6)) }, () => [
          text(),
          randomValue(next, depth + 1),
        ]),
      );
  }
}

describe('canonicalJson against an independent implementation', () => {
  it('writes the same bytes as the canonicalize package for 5,000 random values', () => {
    const next = prng(8785);
    for (let i = 0; i < 5_000; i += 1) {
      const value = randomValue(next);
      expect(canonicalJson(value)).toBe(canonicalize(value));
    }
  });

  it('applies toJSON and leaves out undefined members, as JSON does', () => {
    const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(canonicalJson({ b: when, a: undefined, c: [undefined, 1] })).toBe(
      '{"b":"2026-01-02T03:04:05.000Z","c":[null,1]}',
    );
  });

  it('refuses lone surrogates, BigInt, cycles and values with no JSON form', () => {
    expect(() => canonicalJson('\ud800')).toThrow(TypeError);
    expect(() => canonicalJson({ ['\udc00']: 1 })).toThrow(TypeError);
    expect(() => canonicalJson(['a\ud83d'])).toThrow(TypeError);
    expect(() => canonicalJson(1n)).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(canonicalJson('\ud83d\ude00')).toBe('"😀"');
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

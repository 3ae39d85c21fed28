import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Base64, isBase64 } from '../../src/contract/base64.js';
import { prng } from '../helpers/prng.js';

const zodBase64 = z.base64();
const accepts = (s: string): boolean => zodBase64.safeParse(s).success;

/**
 * Characters a near-miss is made of: the alphabet, padding, base64url's two, whitespace that
 * atob strips, ASCII outside the alphabet, Latin-1, and characters whose low byte is in the
 * alphabet (U+0141 reads as 'A', U+012B as '+') or is '=' (U+013D), and a lone surrogate.
 */
const NEAR = [
  ...'ABCXYZabcxyz0189+/',
  ...'====',
  '-',
  '_',
  ' ',
  '\n',
  '\t',
  '\r',
  '\f',
  '!',
  '.',
  '\0',
  '\x7f',
  '\x80',
  '\xc1',
  '\xff',
  '\u0141',
  '\u012b',
  '\u013d',
  '\u2028',
  '\ud800',
];

describe('isBase64', () => {
  it('accepts exactly the strings z.base64() accepts, on 200,000 near-misses', () => {
    const next = prng(64);
    let accepted = 0;
    for (let i = 0; i < 200_000; i += 1) {
      const length = Math.floor(next() * 13);
      let s = '';
      // mostly the alphabet, so that valid strings and one-character misses both come up
      for (let j = 0; j < length; j += 1) {
        s +=
          next() < 0.8
            ? 'AQgw+/9zZa'[Math.floor(next() * 10)]
            : NEAR[Math.floor(next() * NEAR.length)];
      }
      const expected = accepts(s);
      if (isBase64(s) !== expected)
        expect.fail(`disagrees with z.base64() on ${JSON.stringify(s)}`);
      if (expected) accepted += 1;
    }
    // both answers came up often enough for the comparison to mean something
    expect(accepted).toBeGreaterThan(10_000);
    expect(accepted).toBeLessThan(190_000);
  });

  it('accepts every encoding of random bytes, and refuses each with one character changed', () => {
    const next = prng(65);
    for (let i = 0; i < 2_000; i += 1) {
      const s = randomBytes(Math.floor(next() * 40)).toString('base64');
      expect(isBase64(s)).toBe(true);
      if (s.length === 0) continue;
      const at = Math.floor(next() * s.length);
      const bad = NEAR[Math.floor(next() * NEAR.length)]!;
      const changed = s.slice(0, at) + bad + s.slice(at + 1);
      expect(isBase64(changed)).toBe(accepts(changed));
    }
  });

  it('gives the cases that motivated it the answer z.base64() gives', () => {
    for (const s of [
      '',
      'AAAA',
      'AAA=',
      'AA==',
      'AB==',
      'AAA\u0141',
      'AA-_',
      'A===',
      'AA=A',
      'AAAA ',
    ]) {
      expect(isBase64(s)).toBe(accepts(s));
    }
    expect(isBase64('AAA\u0141')).toBe(false);
    expect(isBase64('AA-_')).toBe(false);
  });
});

describe('Base64', () => {
  it('publishes the JSON Schema z.base64() publishes and fails with its issue', () => {
    for (const target of ['draft-2020-12', 'openapi-3.0'] as const) {
      expect(z.toJSONSchema(Base64(), { target })).toEqual(z.toJSONSchema(zodBase64, { target }));
    }
    const ours = Base64().safeParse('AAA\u0141').error?.issues;
    const theirs = zodBase64.safeParse('AAA\u0141').error?.issues;
    expect(ours).toEqual(theirs);
  });

  it('takes a multi-megabyte document (the exact pattern is published, never run)', () => {
    // RFC 4648's quantified pattern overflows the regular-expression stack at this size
    const document = randomBytes(8_000_000).toString('base64');
    expect(Base64().safeParse(document).success).toBe(true);
    expect(Base64().safeParse(`${document.slice(1)}!`).success).toBe(false);
  });
});

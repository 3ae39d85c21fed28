import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyConsistency, verifyInclusion } from '../../src/log/merkle.js';

/**
 * The verifier's RFC 9162 proof checks against the RFC's definitions written literally here
 * (MTH, PATH and PROOF of §2.1 over arrays), for every tree up to 33 leaves: every valid proof
 * passes, and any changed hash, index, size or root fails.
 */
const sha = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const leaf = (i: number) => sha(Uint8Array.of(0), new TextEncoder().encode(`leaf-${i}`));
const node = (l: Uint8Array, r: Uint8Array) => sha(Uint8Array.of(1), l, r);
const k = (n: number) => {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
};
const mth = (d: Uint8Array[]): Uint8Array =>
  d.length === 1
    ? (d[0] as Uint8Array)
    : node(mth(d.slice(0, k(d.length))), mth(d.slice(k(d.length))));
const path = (m: number, d: Uint8Array[]): Uint8Array[] => {
  if (d.length === 1) return [];
  const s = k(d.length);
  return m < s
    ? [...path(m, d.slice(0, s)), mth(d.slice(s))]
    : [...path(m - s, d.slice(s)), mth(d.slice(0, s))];
};
const subproof = (m: number, d: Uint8Array[], b: boolean): Uint8Array[] => {
  if (m === d.length) return b ? [] : [mth(d)];
  const s = k(d.length);
  return m <= s
    ? [...subproof(m, d.slice(0, s), b), mth(d.slice(s))]
    : [...subproof(m - s, d.slice(s), false), mth(d.slice(0, s))];
};
const flip = (h: Uint8Array) => Uint8Array.from(h, (b, i) => (i === 0 ? b ^ 1 : b));
const leaves = Array.from({ length: 34 }, (_, i) => leaf(i));
const MAX = 33;

describe('verifyInclusion (RFC 9162 §2.1.3.2)', () => {
  it('accepts every valid proof and refuses every single change', () => {
    for (let n = 1; n <= MAX; n += 1) {
      const d = leaves.slice(0, n);
      const root = mth(d);
      for (let m = 0; m < n; m += 1) {
        const proof = path(m, d);
        expect(verifyInclusion(d[m] as Uint8Array, m, n, proof, root), `${m} of ${n}`).toBe(true);
        expect(verifyInclusion(d[m] as Uint8Array, m, n, proof, flip(root))).toBe(false);
        expect(verifyInclusion(flip(d[m] as Uint8Array), m, n, proof, root)).toBe(false);
        if (n > 1)
          expect(verifyInclusion(d[m] as Uint8Array, (m + 1) % n, n, proof, root)).toBe(false);
        expect(
          verifyInclusion(d[m] as Uint8Array, m, n + 1, proof, mth(leaves.slice(0, n + 1))),
        ).toBe(false);
        proof.forEach((_, i) => {
          const bad = proof.map((h, j) => (j === i ? flip(h) : h));
          expect(verifyInclusion(d[m] as Uint8Array, m, n, bad, root)).toBe(false);
        });
        expect(verifyInclusion(d[m] as Uint8Array, m, n, [...proof, root], root)).toBe(false);
      }
    }
  });

  it('refuses impossible positions', () => {
    expect(verifyInclusion(leaves[0] as Uint8Array, 0, 0, [], leaves[0] as Uint8Array)).toBe(false);
    expect(verifyInclusion(leaves[0] as Uint8Array, -1, 1, [], leaves[0] as Uint8Array)).toBe(
      false,
    );
    expect(verifyInclusion(leaves[0] as Uint8Array, 1.5, 2, [], leaves[0] as Uint8Array)).toBe(
      false,
    );
  });
});

describe('verifyConsistency (RFC 9162 §2.1.4.2)', () => {
  it('accepts every valid proof and refuses a changed hash or a different old root', () => {
    for (let n = 1; n <= MAX; n += 1) {
      const d = leaves.slice(0, n);
      const root2 = mth(d);
      for (let m = 1; m <= n; m += 1) {
        const root1 = mth(d.slice(0, m));
        const proof = m === n ? [] : subproof(m, d, true);
        expect(verifyConsistency(m, n, proof, root1, root2), `${m} -> ${n}`).toBe(true);
        expect(verifyConsistency(m, n, proof, flip(root1), root2)).toBe(false);
        expect(verifyConsistency(m, n, proof, root1, flip(root2))).toBe(false);
        proof.forEach((_, i) => {
          const bad = proof.map((h, j) => (j === i ? flip(h) : h));
          expect(verifyConsistency(m, n, bad, root1, root2)).toBe(false);
        });
      }
    }
  });

  it('refuses sizes that cannot be consistent', () => {
    const r = mth(leaves.slice(0, 2));
    expect(verifyConsistency(0, 2, [], r, r)).toBe(false);
    expect(verifyConsistency(3, 2, [], r, r)).toBe(false);
    expect(verifyConsistency(1, 2, [], leaves[0] as Uint8Array, r)).toBe(false);
  });
});

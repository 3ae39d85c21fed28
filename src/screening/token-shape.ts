import { TOKEN_MATCH_FLOOR } from './similarity.js';

/**
 * What the vocabulary knows of a token without comparing characters in order: its length and
 * its characters by bucket, and the bounds on shared characters that similarity needs.
 */

export const BUCKETS = 32;
/** a-z in their own buckets, everything else in six shared ones (a merge only over-counts). */
const bucketOf = (code: number): number =>
  code >= 97 && code <= 122 ? code - 97 : 26 + (code % 6);

export interface Shape {
  length: number;
  counts: Uint8Array;
  /** The buckets present, for loops over the shape's own buckets only. */
  buckets: number[];
}

export function shapeOf(token: string, counts: Uint8Array = new Uint8Array(BUCKETS)): Shape {
  for (let i = 0; i < token.length; i += 1) {
    const b = bucketOf(token.charCodeAt(i));
    if (counts[b]! < 255) counts[b]! += 1;
  }
  const buckets: number[] = [];
  for (let b = 0; b < BUCKETS; b += 1) if (counts[b]! > 0) buckets.push(b);
  return { length: token.length, counts, buckets };
}

/**
 * Jaro-Winkler with a common prefix of l (<= 4) characters is j + 0.1 l (1 - j), so reaching
 * 0.85 needs Jaro j >= (0.85 - 0.1 l) / (1 - 0.1 l), and Jaro <= (m / lx + m / ly + 1) / 3 then
 * needs m / lx + m / ly >= 3 j - 1: 1.55, 1.5, 1.4375, 1.357.., 1.25 for l = 0..4. As integer
 * ratios NEED_NUM[l] / NEED_DEN, rounded down (a looser bound, never a stricter one).
 */
export const NEED_DEN = 1000;
export const NEED_NUM = [0, 1, 2, 3, 4].map((l) => {
  const jaro = (TOKEN_MATCH_FLOOR - 0.1 * l) / (1 - 0.1 * l);
  return Math.floor((3 * jaro - 1) * NEED_DEN - 1e-6);
});

export function popcount(v: number): number {
  let n = v - ((v >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Edits Levenshtein similarity >= TOKEN_MATCH_FLOOR allows a joined pair against `length`. */
export function joinEdits(length: number): number {
  return Math.floor((length * (1 - TOKEN_MATCH_FLOOR)) / TOKEN_MATCH_FLOOR + 1e-9);
}

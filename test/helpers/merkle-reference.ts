import { createHash } from 'node:crypto';

/**
 * RFC 9162 §2.1 written out literally from the definitions (MTH, PATH, PROOF/SUBPROOF), over
 * leaf hashes, with node:crypto: the reference the log's tiles and proofs are compared with.
 */

const sha256 = (...parts: Uint8Array[]): Uint8Array => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

export const refLeafHash = (entry: Uint8Array): Uint8Array => sha256(Uint8Array.of(0), entry);

/** The largest power of two smaller than n (n > 1). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH of the tree whose leaf hashes are `leaves` (n >= 1). */
export function mth(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 1) return leaves[0] as Uint8Array;
  const k = split(leaves.length);
  return sha256(Uint8Array.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

/** PATH(m, D[n]): the inclusion proof of leaf m. */
export function path(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}

/** PROOF(m, D[n]) = SUBPROOF(m, D[n], true): the consistency proof from size m. */
export function consistency(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  return subproof(m, leaves, true);
}

function subproof(m: number, leaves: readonly Uint8Array[], b: boolean): Uint8Array[] {
  const n = leaves.length;
  if (m === n) return b ? [] : [mth(leaves)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), b), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

/**
 * The hashes a tlog-tiles hash tile at `level` holds for a tree of `leaves`: the MTH of each
 * full run of 256^level leaves, from tile `index`, `width` of them.
 */
export function expectedTile(
  leaves: readonly Uint8Array[],
  level: number,
  index: number,
  width: number,
): Buffer {
  const span = 256 ** level;
  const hashes: Uint8Array[] = [];
  for (let i = index * 256; i < index * 256 + width; i++) {
    hashes.push(mth(leaves.slice(i * span, (i + 1) * span)));
  }
  return Buffer.concat(hashes);
}

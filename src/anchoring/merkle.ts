import { createHash, timingSafeEqual } from 'node:crypto';
import { half, isOdd, isPowerOfTwo, isTreeSize, splitPoint } from './tree-math.js';

/**
 * RFC 9162 (Certificate Transparency v2) Merkle tree hashing with SHA-256, and the two iterative
 * proof verifiers of §2.1.3.2 and §2.1.4.2. Verifiers return `false` on any malformed input.
 */

/** Length in bytes of every hash in the log. */
export const HASH_SIZE = 32;

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

/** RFC 9162 §2.1.1: MTH({}) = HASH(), the root of the empty tree. */
export const EMPTY_ROOT: Uint8Array = sha256();

/** RFC 9162 §2.1.1: MTH({d(0)}) = HASH(0x00 || d(0)). */
export function leafHash(data: Uint8Array): Uint8Array {
  return sha256(LEAF_PREFIX, data);
}

/** RFC 9162 §2.1.1: HASH(0x01 || left || right), the hash of an interior node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(NODE_PREFIX, left, right);
}

/** Whether `value` has the length of a SHA-256 hash. */
export function isHash(value: Uint8Array): boolean {
  return value.length === HASH_SIZE;
}

/** Constant-time equality of two hashes (false when either is not 32 bytes). */
export function equalHashes(a: Uint8Array, b: Uint8Array): boolean {
  return isHash(a) && isHash(b) && timingSafeEqual(a, b);
}

/**
 * RFC 9162 §2.1.1 MTH(D[n]) over already-computed leaf hashes (`leafHash` of each entry).
 * O(n) hashes; the log itself derives roots from stored subtrees (see `compact-range.ts`).
 */
export function rootHash(leafHashes: readonly Uint8Array[]): Uint8Array {
  return leafHashes.length === 0 ? EMPTY_ROOT : subtreeRoot(leafHashes, 0, leafHashes.length);
}

/** MTH(D[start:end]) for end - start ≥ 1: split at the largest power of two below the size. */
function subtreeRoot(leafHashes: readonly Uint8Array[], start: number, end: number): Uint8Array {
  if (end - start === 1) return leafHashes[start] as Uint8Array;
  const middle = start + splitPoint(end - start);
  return nodeHash(subtreeRoot(leafHashes, start, middle), subtreeRoot(leafHashes, middle, end));
}

/**
 * RFC 9162 §2.1.3.2: whether `proof` (the inclusion path, lowest sibling first) proves that the
 * leaf with hash `leaf` is at `index` in the tree of size `treeSize` whose root is `root`.
 */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  treeSize: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!isTreeSize(index) || !isTreeSize(treeSize) || index >= treeSize) return false; // step 1
  if (!isHash(leaf) || !proof.every(isHash)) return false;
  let fn = index; // step 2
  let sn = treeSize - 1;
  let r = leaf; // step 3
  for (const p of proof) {
    // step 4
    if (sn === 0) return false; // 4a
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r); // 4b
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)]; // 4b
    } else {
      r = nodeHash(r, p); // 4b, otherwise
    }
    [fn, sn] = [half(fn), half(sn)]; // 4c
  }
  return sn === 0 && equalHashes(r, root); // step 5
}

/**
 * RFC 9162 §2.1.4.2: whether `proof` shows that the tree of size `m` with root `rootM` is a prefix
 * of the tree of size `n` with root `rootN`. Equal sizes need an empty proof and equal roots; the
 * empty tree (m = 0) is a prefix of every tree: empty proof, `rootM` = {@link EMPTY_ROOT}.
 */
export function verifyConsistency(
  m: number,
  n: number,
  rootM: Uint8Array,
  rootN: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!isTreeSize(m) || !isTreeSize(n) || m > n) return false;
  if (!isHash(rootM) || !isHash(rootN) || !proof.every(isHash)) return false;
  if (m === n) return proof.length === 0 && equalHashes(rootM, rootN);
  if (m === 0) return proof.length === 0 && equalHashes(rootM, EMPTY_ROOT);
  if (proof.length === 0) return false; // step 1
  const path = isPowerOfTwo(m) ? [rootM, ...proof] : proof; // step 2
  let fn = m - 1; // step 3
  let sn = n - 1;
  while (isOdd(fn)) [fn, sn] = [half(fn), half(sn)]; // step 4
  let fr = path[0] as Uint8Array; // step 5
  let sr = fr;
  for (const c of path.slice(1)) {
    // step 6
    if (sn === 0) return false; // 6a
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr); // 6b
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)]; // 6b
    } else {
      sr = nodeHash(sr, c); // 6b, otherwise
    }
    [fn, sn] = [half(fn), half(sn)]; // 6c
  }
  return sn === 0 && equalHashes(fr, rootM) && equalHashes(sr, rootN); // step 7
}

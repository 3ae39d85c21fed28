/**
 * Integer helpers for tree sizes and leaf indices. They use arithmetic, not JavaScript's
 * 32-bit bitwise operators, so they stay exact for every safe integer (up to 2^53 - 1).
 */

/** A perfect subtree: the node at `level` over leaves [index * 2^level, (index + 1) * 2^level). */
export interface NodeKey {
  level: number;
  index: number;
}

/** Whether `n` can be a tree size or a leaf index: a non-negative safe integer. */
export function isTreeSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

export function isOdd(n: number): boolean {
  return n % 2 === 1;
}

/** `n >> 1` for any safe integer. */
export function half(n: number): number {
  return Math.floor(n / 2);
}

/** Whether `n` is 2^k for some k ≥ 0. */
export function isPowerOfTwo(n: number): boolean {
  if (n < 1) return false;
  let rest = n;
  while (rest % 2 === 0) rest /= 2;
  return rest === 1;
}

/** RFC 9162 §2.1.1: k, the largest power of two smaller than n (requires n > 1). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The perfect subtrees that tile the leaf range [start, end), left to right, each as large as its
 * alignment allows. When `start` is a multiple of the smallest power of two ≥ (end - start) (true
 * of every range RFC 9162's recursions produce, and of [0, n)), the subtrees strictly shrink left
 * to right and are exactly the ones whose right-to-left fold is MTH(D[start:end]).
 */
export function perfectSubtrees(start: number, end: number): NodeKey[] {
  const keys: NodeKey[] = [];
  let position = start;
  while (position < end) {
    let level = 0;
    let width = 1;
    while (position % (width * 2) === 0 && position + width * 2 <= end) {
      level += 1;
      width *= 2;
    }
    keys.push({ level, index: position / width });
    position += width;
  }
  return keys;
}

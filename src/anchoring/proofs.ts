import { compactRangeRoot } from './compact-range.js';
import { LogError } from './errors.js';
import { nodeHashes, type NodeStore } from './node-store.js';
import { isTreeSize, perfectSubtrees, splitPoint } from './tree-math.js';

/**
 * Proof generation against a {@link NodeStore}. Each proof element is MTH(D[start:end]) of a leaf
 * range chosen by the RFC 9162 recursions below. Every such range starts at a multiple of its
 * size's next power of two, so it is tiled by a shrinking sequence of stored perfect subtrees;
 * all but at most one range of a proof are themselves perfect (one node), so a proof costs
 * O(log n) node lookups, fetched in a single `getNodes` call.
 */

/** The leaf range [start, end) whose MTH is one proof element. */
interface LeafRange {
  start: number;
  end: number;
}

/**
 * RFC 9162 §2.1.3.1 PATH(m, D[start:end]) as leaf ranges, lowest sibling first; `m` is relative
 * to `start`.
 */
function inclusionRanges(m: number, start: number, end: number): LeafRange[] {
  const n = end - start;
  if (n === 1) return [];
  const k = splitPoint(n);
  return m < k
    ? [...inclusionRanges(m, start, start + k), { start: start + k, end }]
    : [...inclusionRanges(m - k, start + k, end), { start, end: start + k }];
}

/**
 * RFC 9162 §2.1.4.1 SUBPROOF(m, D[start:end], b) as leaf ranges; `m` is relative to `start`.
 */
function consistencyRanges(m: number, start: number, end: number, b: boolean): LeafRange[] {
  const n = end - start;
  if (m === n) return b ? [] : [{ start, end }];
  const k = splitPoint(n);
  return m <= k
    ? [...consistencyRanges(m, start, start + k, b), { start: start + k, end }]
    : [...consistencyRanges(m - k, start + k, end, false), { start, end: start + k }];
}

/** MTH of each range, composed from stored perfect subtrees read in one store round trip. */
async function rangeHashes(ranges: readonly LeafRange[], store: NodeStore): Promise<Uint8Array[]> {
  const tilings = ranges.map((range) => perfectSubtrees(range.start, range.end));
  const hashes = await nodeHashes(store, tilings.flat());
  let next = 0;
  return tilings.map((tiling) => {
    next += tiling.length;
    return compactRangeRoot(hashes.slice(next - tiling.length, next));
  });
}

/**
 * RFC 9162 §2.1.3.1: the inclusion proof of leaf `index` in the tree of size `treeSize`, lowest
 * sibling first. The store must hold a tree of at least `treeSize` leaves.
 */
export async function inclusionProof(
  index: number,
  treeSize: number,
  store: NodeStore,
): Promise<Uint8Array[]> {
  if (!isTreeSize(index) || !isTreeSize(treeSize) || index >= treeSize) {
    throw new LogError(
      'invalid_argument',
      `need safe integers 0 <= index (${index}) < size (${treeSize})`,
    );
  }
  return rangeHashes(inclusionRanges(index, 0, treeSize), store);
}

/**
 * RFC 9162 §2.1.4.1: the consistency proof PROOF(m, D[n]) between tree sizes m and n. For m = n,
 * and for m = 0 (the empty tree), the proof is empty. The store must hold at least `n` leaves.
 */
export async function consistencyProof(
  m: number,
  n: number,
  store: NodeStore,
): Promise<Uint8Array[]> {
  if (!isTreeSize(m) || !isTreeSize(n) || m > n) {
    throw new LogError('invalid_argument', `need safe integers 0 <= m (${m}) <= n (${n})`);
  }
  if (m === 0) return [];
  return rangeHashes(consistencyRanges(m, 0, n, true), store);
}

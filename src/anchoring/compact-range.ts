import { LogError } from './errors.js';
import { EMPTY_ROOT, isHash, nodeHash } from './merkle.js';
import { nodeHashes, type NodeStore, type StoredNode } from './node-store.js';
import { isOdd, isTreeSize, perfectSubtrees } from './tree-math.js';

/**
 * Appending to the log. The tree of size n is summarised by its compact range: the perfect
 * subtrees tiling [0, n), one per set bit of n, largest first (a Merkle Mountain Range). Its
 * right-to-left fold is MTH(D[n]) (RFC 9162 §2.1.1). Appending a leaf pushes it onto the range
 * and merges equal-sized neighbours; every merge yields a new perfect subtree, which is stored.
 */

/** Leaves appended between two turns of the event loop (about 1 ms of hashing). */
const YIELD_EVERY = 512;

/** The outcome of {@link appendLeaves}: the rows to persist and the new signed-tree-head data. */
export interface AppendResult {
  treeSize: number;
  rootHash: Uint8Array;
  /** Every perfect subtree completed by the append, leaves (level 0) included. */
  nodes: StoredNode[];
}

/** RFC 9162 §2.1.1 MTH of the tree whose compact range is `range` (empty range: empty tree). */
export function compactRangeRoot(range: readonly Uint8Array[]): Uint8Array {
  let root = range.at(-1);
  if (root === undefined) return EMPTY_ROOT;
  for (let i = range.length - 2; i >= 0; i -= 1) root = nodeHash(range[i] as Uint8Array, root);
  return root;
}

/** The compact range of the stored tree of size `treeSize`: popcount(treeSize) nodes, one read. */
async function compactRange(treeSize: number, store: NodeStore): Promise<StoredNode[]> {
  const keys = perfectSubtrees(0, treeSize);
  const hashes = await nodeHashes(store, keys);
  return keys.map((key, i) => ({ ...key, hash: hashes[i] as Uint8Array }));
}

/** RFC 9162 §2.1.1 MTH(D[treeSize]) from O(log n) stored nodes, for any size the store holds. */
export async function storedRootHash(treeSize: number, store: NodeStore): Promise<Uint8Array> {
  if (!isTreeSize(treeSize)) throw new LogError('invalid_argument', `bad tree size ${treeSize}`);
  const range = await compactRange(treeSize, store);
  return compactRangeRoot(range.map((node) => node.hash));
}

/** Pushes one leaf onto `range` (mutated), appending every completed perfect subtree to `out`. */
function pushLeaf(range: StoredNode[], leaf: StoredNode, out: StoredNode[]): void {
  let node = leaf;
  out.push(node);
  while (isOdd(node.index)) {
    const left = range.pop() as StoredNode; // the sibling: range always ends at node's left edge
    node = {
      level: node.level + 1,
      index: (node.index - 1) / 2,
      hash: nodeHash(left.hash, node.hash),
    };
    out.push(node);
  }
  range.push(node);
}

/**
 * Appends `leafHashes` (RFC 9162 leaf hashes, see `leafHash`) to the stored tree of size
 * `existingSize`. Reads only that tree's compact range (one `getNodes` call) and returns the nodes
 * to insert, about two per leaf. The caller must persist them in the same transaction that moves
 * the log size from `existingSize` to `treeSize`, and must serialise appends; inserting without
 * `on conflict do nothing` makes a concurrent append collide on the `(level, idx)` primary key.
 */
export async function appendLeaves(
  existingSize: number,
  leafHashes: readonly Uint8Array[],
  store: NodeStore,
): Promise<AppendResult> {
  if (!isTreeSize(existingSize) || !isTreeSize(existingSize + leafHashes.length)) {
    throw new LogError('invalid_argument', `bad tree size ${existingSize}`);
  }
  if (!leafHashes.every(isHash)) {
    throw new LogError('malformed_hash', 'leaf hashes must be 32 bytes');
  }
  const range = await compactRange(existingSize, store);
  const nodes: StoredNode[] = [];
  for (const [i, hash] of leafHashes.entries()) {
    pushLeaf(range, { level: 0, index: existingSize + i, hash }, nodes);
    // about 2 hashes per leaf: let requests in between slices rather than after them all
    if ((i + 1) % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    treeSize: existingSize + leafHashes.length,
    rootHash: compactRangeRoot(range.map((node) => node.hash)),
    nodes,
  };
}

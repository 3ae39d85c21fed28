import { appendLeaves } from '../../src/anchoring/compact-range.js';
import { leafHash, nodeHash } from '../../src/anchoring/merkle.js';
import { MemoryNodeStore, type NodeKey, type NodeStore } from '../../src/anchoring/node-store.js';
import { createHash } from 'node:crypto';

/**
 * Test-only reference: RFC 9162 §2.1 written as literally as possible over arrays of leaf hashes,
 * plus helpers that build stores the way the log does.
 */

/** Largest power of two strictly below n, by the definition. */
function largestPowerBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 9162 §2.1.1 MTH(D[n]), on slices. */
export function referenceRoot(d: Uint8Array[]): Uint8Array {
  if (d.length === 0) return new Uint8Array(createHash('sha256').digest());
  if (d.length === 1) return d[0] as Uint8Array;
  const k = largestPowerBelow(d.length);
  return nodeHash(referenceRoot(d.slice(0, k)), referenceRoot(d.slice(k)));
}

/** RFC 9162 §2.1.3.1 PATH(m, D[n]), on slices. */
export function referencePath(m: number, d: Uint8Array[]): Uint8Array[] {
  if (d.length === 1) return [];
  const k = largestPowerBelow(d.length);
  return m < k
    ? [...referencePath(m, d.slice(0, k)), referenceRoot(d.slice(k))]
    : [...referencePath(m - k, d.slice(k)), referenceRoot(d.slice(0, k))];
}

/** RFC 9162 §2.1.4.1 SUBPROOF(m, D[n], b), on slices. */
function referenceSubproof(m: number, d: Uint8Array[], b: boolean): Uint8Array[] {
  if (m === d.length) return b ? [] : [referenceRoot(d)];
  const k = largestPowerBelow(d.length);
  return m <= k
    ? [...referenceSubproof(m, d.slice(0, k), b), referenceRoot(d.slice(k))]
    : [...referenceSubproof(m - k, d.slice(k), false), referenceRoot(d.slice(0, k))];
}

/** RFC 9162 §2.1.4.1 PROOF(m, D[n]) = SUBPROOF(m, D[n], true). */
export function referenceConsistency(m: number, d: Uint8Array[]): Uint8Array[] {
  return referenceSubproof(m, d, true);
}

/** Deterministic PRNG (mulberry32) so failures reproduce; returns integers in [0, bound). */
export function seededRandom(seed: number): (bound: number) => number {
  let state = seed >>> 0;
  return (bound) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * bound);
  };
}

/** Leaf hashes of the entries "leaf-0", "leaf-1", ... */
export function sampleLeaves(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => leafHash(new TextEncoder().encode(`leaf-${i}`)));
}

/** A store holding `leaves`, appended in batches of the sizes `batchSize()` chooses. */
export async function storeOf(
  leaves: readonly Uint8Array[],
  batchSize: () => number = () => leaves.length,
): Promise<MemoryNodeStore> {
  const store = new MemoryNodeStore();
  let size = 0;
  while (size < leaves.length) {
    const batch = leaves.slice(size, size + Math.max(1, batchSize()));
    const { nodes, treeSize } = await appendLeaves(size, batch, store);
    store.put(nodes);
    size = treeSize;
  }
  return store;
}

/** Wraps a store and counts the keys asked for, to show proofs cost O(log n) lookups. */
export class CountingNodeStore implements NodeStore {
  keys = 0;
  calls = 0;

  constructor(private readonly inner: NodeStore) {}

  getNodes(keys: readonly NodeKey[]): Promise<Map<string, Uint8Array>> {
    this.keys += keys.length;
    this.calls += 1;
    return this.inner.getNodes(keys);
  }
}

/** `items[index]`, which must exist (keeps tests free of non-null assertions). */
export function item<T>(items: readonly T[], index: number): T {
  const value = items[index];
  if (value === undefined) throw new RangeError(`no item at ${index}`);
  return value;
}

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { storedRootHash } from '../../src/anchoring/compact-range.js';
import { rootHash, verifyConsistency, verifyInclusion } from '../../src/anchoring/merkle.js';
import { MemoryNodeStore } from '../../src/anchoring/node-store.js';
import { consistencyProof, inclusionProof } from '../../src/anchoring/proofs.js';
import {
  CountingNodeStore,
  referenceConsistency,
  referencePath,
  referenceRoot,
  sampleLeaves,
  item,
  seededRandom,
  storeOf,
} from './reference.js';

/** Copies of `proof` with one bit flipped in each element in turn. */
function bitFlips(proof: readonly Uint8Array[]): Uint8Array[][] {
  return proof.map((_, i) =>
    proof.map((hash, j) => (i === j ? hash.map((byte, k) => (k === 0 ? byte ^ 8 : byte)) : hash)),
  );
}

/** Proofs that differ from `proof` by an added or removed element, or by their order. */
function reshaped(proof: readonly Uint8Array[], extra: Uint8Array): Uint8Array[][] {
  const variants = [
    [...proof, extra],
    [extra, ...proof],
  ];
  if (proof.length > 0) variants.push(proof.slice(1), proof.slice(0, -1));
  if (proof.length > 1) variants.push([...proof].reverse());
  return variants;
}

/** Hex of each hash: compares far faster in `expect` than arrays of Uint8Array. */
const hexes = (proof: readonly Uint8Array[]): string[] =>
  proof.map((hash) => Buffer.from(hash).toString('hex'));

/** Upper bound on node lookups for one proof in a tree of size n (see bench/README.md). */
const lookupBound = (n: number): number => 2 * Math.ceil(Math.log2(n)) + 1;

describe('inclusion proofs', () => {
  const leaves = sampleLeaves(70);
  const roots = Array.from({ length: 71 }, (_, n) => referenceRoot(leaves.slice(0, n)));

  it('equal RFC 9162 PATH and verify, for every leaf of every size 1..70', async () => {
    const random = seededRandom(70);
    const store = await storeOf(leaves, () => 1 + random(9));
    for (let n = 1; n <= 70; n += 1) {
      for (let i = 0; i < n; i += 1) {
        const counting = new CountingNodeStore(store);
        const proof = await inclusionProof(i, n, counting);
        expect(hexes(proof)).toEqual(hexes(referencePath(i, leaves.slice(0, n))));
        expect(verifyInclusion(item(leaves, i), i, n, proof, item(roots, n))).toBe(true);
        expect(counting.calls).toBe(n === 1 ? 0 : 1);
        expect(counting.keys).toBeLessThanOrEqual(lookupBound(n));
      }
    }
  });

  it('fail for a tampered leaf, proof, index, size or root (every leaf, sizes 1..40)', async () => {
    const store = await storeOf(leaves);
    for (let n = 1; n <= 40; n += 1) {
      for (let i = 0; i < n; i += 1) {
        const proof = await inclusionProof(i, n, store);
        const leaf = item(leaves, i);
        const root = item(roots, n);
        const rejects = (l: Uint8Array, index: number, size: number, p: Uint8Array[], r = root) =>
          expect(verifyInclusion(l, index, size, p, r), `leaf ${i} of ${n}`).toBe(false);
        rejects(item(leaves, i + 1), i, n, proof);
        bitFlips(proof).forEach((p) => rejects(leaf, i, n, p));
        reshaped(proof, root).forEach((p) => rejects(leaf, i, n, p));
        for (const index of [i - 1, i + 1, i ^ 2, n]) {
          if (index !== i) rejects(leaf, index, n, proof);
        }
        for (const size of [n * 2, Math.floor(n / 2), 0]) rejects(leaf, i, size, proof);
        for (const size of [n - 1, n + 1]) rejects(leaf, i, size, proof, item(roots, size));
        rejects(leaf, i, n, proof, item(roots, n - 1));
      }
    }
  });

  it('are refused outside the tree or beyond the stored size', async () => {
    const store = await storeOf(leaves.slice(0, 5));
    for (const [index, size] of [
      [5, 5],
      [0, 0],
      [-1, 5],
      [1.5, 5],
    ] as const) {
      await expect(inclusionProof(index, size, store)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    await expect(inclusionProof(0, 6, store)).rejects.toMatchObject({ code: 'missing_node' });
  });
});

describe('consistency proofs', () => {
  const leaves = sampleLeaves(41);
  const roots = Array.from({ length: 42 }, (_, n) => referenceRoot(leaves.slice(0, n)));

  it('equal RFC 9162 PROOF and verify for every 1 <= m <= n <= 40', async () => {
    const store = await storeOf(leaves, () => 3);
    for (let n = 1; n <= 40; n += 1) {
      for (let m = 1; m <= n; m += 1) {
        const counting = new CountingNodeStore(store);
        const proof = await consistencyProof(m, n, counting);
        const expected = m === n ? [] : referenceConsistency(m, leaves.slice(0, n));
        expect(hexes(proof)).toEqual(hexes(expected));
        expect(verifyConsistency(m, n, item(roots, m), item(roots, n), proof)).toBe(true);
        expect(counting.keys).toBeLessThanOrEqual(lookupBound(n));
      }
    }
  });

  it('fail for tampered proofs, sizes or roots for every 1 <= m < n <= 40', async () => {
    const store = await storeOf(leaves);
    for (let n = 2; n <= 40; n += 1) {
      for (let m = 1; m < n; m += 1) {
        const proof = await consistencyProof(m, n, store);
        const [rootM, rootN] = [item(roots, m), item(roots, n)];
        const rejects = (a: number, b: number, p: Uint8Array[], rA = rootM, rB = rootN) =>
          expect(verifyConsistency(a, b, rA, rB, p), `${m} -> ${n}`).toBe(false);
        bitFlips(proof).forEach((p) => rejects(m, n, p));
        reshaped(proof, rootM).forEach((p) => rejects(m, n, p));
        rejects(m, n, []);
        for (const size of [m - 1, m + 1, m ^ 2]) if (size !== m) rejects(size, n, proof);
        rejects(m, n * 2, proof);
        for (const size of [n - 1, n + 1]) {
          if (size > m) rejects(m, size, proof, rootM, item(roots, size));
        }
        rejects(m, n, proof, rootN, rootM);
        rejects(m, n, proof, item(roots, m - 1), rootN);
        rejects(m, n, proof, rootM, item(roots, n - 1));
      }
    }
  });

  it('handle m = n and the empty tree', async () => {
    const store = await storeOf(leaves.slice(0, 5));
    const [root0, root4, root5] = [item(roots, 0), item(roots, 4), item(roots, 5)];
    expect(await consistencyProof(5, 5, store)).toEqual([]);
    expect(await consistencyProof(0, 5, store)).toEqual([]);
    expect(verifyConsistency(5, 5, root5, root5, [])).toBe(true);
    expect(verifyConsistency(5, 5, root5, root4, [])).toBe(false);
    expect(verifyConsistency(5, 5, root5, root5, [root5])).toBe(false);
    expect(verifyConsistency(0, 5, root0, root5, [])).toBe(true);
    expect(verifyConsistency(0, 5, root4, root5, [])).toBe(false);
    expect(verifyConsistency(6, 5, root5, root5, [])).toBe(false);
    await expect(consistencyProof(6, 5, store)).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('a 100,000-leaf tree appended in random batches', () => {
  const random = seededRandom(100_000);
  let leaves: Uint8Array[];
  let root: Uint8Array;
  let store: MemoryNodeStore;

  beforeAll(async () => {
    leaves = sampleLeaves(100_000);
    root = rootHash(leaves);
    store = await storeOf(leaves, () => 1 + random(2_000));
  });

  it('has the root of the whole-tree recursion, and of each earlier size', async () => {
    expect(await storedRootHash(leaves.length, store)).toEqual(root);
    for (const m of [1, 2, 3, 65_536, 99_999]) {
      expect(await storedRootHash(m, store)).toEqual(rootHash(leaves.slice(0, m)));
    }
  });

  it('proves inclusion of random leaves with O(log n) lookups', async () => {
    for (let trial = 0; trial < 200; trial += 1) {
      const index = random(leaves.length);
      const leaf = item(leaves, index);
      const counting = new CountingNodeStore(store);
      const proof = await inclusionProof(index, leaves.length, counting);
      expect(proof.length).toBeLessThanOrEqual(17); // ⌈log2(100,000)⌉
      expect(counting.keys).toBeLessThanOrEqual(lookupBound(leaves.length));
      expect(verifyInclusion(leaf, index, leaves.length, proof, root)).toBe(true);
      expect(verifyInclusion(leaf, index ^ 1, leaves.length, proof, root)).toBe(false);
    }
  });

  it('proves consistency between random sizes, including m = 1 and m = n', async () => {
    const sizes = fc.integer({ min: 1, max: leaves.length });
    const pairs = fc.oneof(
      fc.tuple(sizes, sizes).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
      sizes.map((n) => [1, n] as const),
      sizes.map((n) => [n, n] as const),
    );
    await fc.assert(
      fc.asyncProperty(pairs, async ([m, n]) => {
        const counting = new CountingNodeStore(store);
        const proof = await consistencyProof(m, n, counting);
        const [rootM, rootN] = [await storedRootHash(m, store), await storedRootHash(n, store)];
        expect(verifyConsistency(m, n, rootM, rootN, proof)).toBe(true);
        expect(counting.keys).toBeLessThanOrEqual(lookupBound(n));
      }),
      { numRuns: 300, seed: 9162 },
    );
  });
});

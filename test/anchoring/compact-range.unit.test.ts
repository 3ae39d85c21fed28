import { describe, expect, it } from 'vitest';
import { appendLeaves, storedRootHash } from '../../src/anchoring/compact-range.js';
import { EMPTY_ROOT, rootHash } from '../../src/anchoring/merkle.js';
import { MemoryNodeStore, nodeId } from '../../src/anchoring/node-store.js';
import { perfectSubtrees } from '../../src/anchoring/tree-math.js';
import { CountingNodeStore, sampleLeaves, seededRandom, storeOf } from './reference.js';

describe('appendLeaves', () => {
  it('starts from the empty tree', async () => {
    const result = await appendLeaves(0, [], new MemoryNodeStore());
    expect(result).toEqual({ treeSize: 0, rootHash: EMPTY_ROOT, nodes: [] });
  });

  it('writes every perfect subtree exactly once: 2n - popcount(n) nodes for n leaves', async () => {
    const random = seededRandom(7);
    for (const n of [1, 2, 3, 7, 8, 1000, 4097]) {
      const store = await storeOf(sampleLeaves(n), () => 1 + random(50));
      const popcount = n.toString(2).replaceAll('0', '').length;
      expect(store.size).toBe(2 * n - popcount);
    }
  });

  it('reads only the compact range of the existing tree, in one call', async () => {
    const leaves = sampleLeaves(1000);
    const counting = new CountingNodeStore(await storeOf(leaves.slice(0, 999)));
    const result = await appendLeaves(999, leaves.slice(999), counting);
    expect(counting.calls).toBe(1);
    expect(counting.keys).toBe(perfectSubtrees(0, 999).length); // popcount(999) = 8
    expect(result.rootHash).toEqual(rootHash(leaves));
  });

  it('returns the new leaves and every parent they complete, keyed (level, index)', async () => {
    const leaves = sampleLeaves(4);
    const store = await storeOf(leaves.slice(0, 3));
    const { nodes, treeSize } = await appendLeaves(3, leaves.slice(3), store);
    expect(treeSize).toBe(4);
    expect(nodes.map(nodeId)).toEqual(['0:3', '1:1', '2:0']);
    expect(nodes[2]?.hash).toEqual(rootHash(leaves));
  });

  it('refuses malformed leaf hashes and sizes', async () => {
    const store = new MemoryNodeStore();
    await expect(appendLeaves(0, [new Uint8Array(31)], store)).rejects.toMatchObject({
      code: 'malformed_hash',
    });
    for (const size of [-1, 0.5, Number.MAX_SAFE_INTEGER + 1]) {
      await expect(appendLeaves(size, [], store)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
  });

  it('fails when the claimed existing size is larger than the stored tree', async () => {
    const store = await storeOf(sampleLeaves(5));
    await expect(appendLeaves(6, sampleLeaves(1), store)).rejects.toMatchObject({
      code: 'missing_node',
    });
  });

  it('cannot persist the same append twice (primary-key semantics)', async () => {
    const leaves = sampleLeaves(3);
    const store = await storeOf(leaves.slice(0, 2));
    const replay = await appendLeaves(1, leaves.slice(1, 2), store);
    expect(() => store.put(replay.nodes)).toThrow(/duplicate node/);
    expect(store.size).toBe(3);
  });
});

describe('storedRootHash', () => {
  it('recovers the root of every earlier size from the stored nodes', async () => {
    const leaves = sampleLeaves(150);
    const store = await storeOf(leaves, () => 17);
    for (let size = 0; size <= 150; size += 1) {
      expect(await storedRootHash(size, store)).toEqual(rootHash(leaves.slice(0, size)));
    }
  });

  it('fails for a size beyond the stored tree', async () => {
    const store = await storeOf(sampleLeaves(8));
    await expect(storedRootHash(9, store)).rejects.toMatchObject({ code: 'missing_node' });
  });
});

describe('node reads', () => {
  it('refuse a stored node that is not 32 bytes instead of hashing it into a root', async () => {
    const store = new MemoryNodeStore();
    store.put([{ level: 0, index: 0, hash: new Uint8Array(31) }]);
    await expect(appendLeaves(1, sampleLeaves(1), store)).rejects.toMatchObject({
      code: 'malformed_hash',
    });
  });
});

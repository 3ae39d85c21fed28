import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { nodeId } from '../../../src/anchoring/node-store.js';
import type { PendingEntry } from '../../../src/anchoring/log-store.js';
import type { Repositories } from '../../../src/storage/repositories.js';
import type { Contract } from './harness.js';
import { unique } from './harness.js';
import { logEntryOf, newReceipt, storedReceipt } from './receipt-fixtures.js';

/** Queues `count` entries through the receipts that carry them; their entries, in order. */
async function queue(stores: Repositories, count: number): Promise<Buffer[]> {
  const tenant = unique('tenant');
  const entries: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    const receipt = storedReceipt();
    await stores.receipts.insert(newReceipt(tenant, receipt, { proof: true }));
    entries.push(logEntryOf(receipt).entry);
  }
  return entries;
}

/** A node hash the store only keeps: the Merkle arithmetic is the domain's, not the store's. */
const hashOf = (level: number, index: number) => new Uint8Array(32).fill(level * 16 + index + 1);

/** Appends `pending` at `firstIndex` with one level-0 node per leaf, and a checkpoint. */
export async function seal(stores: Repositories, limit: number): Promise<PendingEntry[]> {
  return stores.log.withSealLock(async (tx) => {
    const size = (await tx.latestCheckpoint())?.treeSize ?? 0;
    const pending = await tx.pending(limit);
    await tx.recordLeaves({
      firstIndex: size,
      entries: pending,
      nodes: pending.map((_, i) => ({ level: 0, index: size + i, hash: hashOf(0, size + i) })),
    });
    const treeSize = size + pending.length;
    await tx.recordCheckpoint({
      treeSize,
      rootHash: Buffer.from(hashOf(1, treeSize)),
      note: `log\n${treeSize}\n`,
    });
    return pending;
  });
}

/**
 * LogStore (src/anchoring/log-store.ts): the queue, the sealed leaves and nodes, checkpoints
 * and witness state. The log is global: this contract runs on a store of its own, from empty.
 */
export const logStoreContract: Contract = (stores) => {
  it('starts empty', async () => {
    const { log } = stores();
    expect(await log.latestCheckpoint()).toBeUndefined();
    expect(await log.checkpointAt(1)).toBeUndefined();
    expect(await log.pendingCount()).toBe(0);
    expect(await log.entryRange(0, 10)).toEqual([]);
    expect(await log.nodeRange(0, 0, 10)).toEqual([]);
    expect(await log.witnessSize('w')).toBe(0);
  });

  it('queues entries in order and hands out the oldest first, up to the limit', async () => {
    const entries = await queue(stores(), 5);
    expect(await stores().log.pendingCount()).toBe(5);
    const firstTwo = await seal(stores(), 2);
    expect(firstTwo).toHaveLength(2);
    expect(firstTwo[0]!.seq).toBeLessThan(firstTwo[1]!.seq);
    expect(await stores().log.pendingCount()).toBe(3);
    expect(await seal(stores(), 10)).toHaveLength(3);
    expect(await stores().log.pendingCount()).toBe(0);
    const read = await stores().log.entryRange(0, 10);
    expect(read.map((e) => Buffer.from(e))).toEqual(entries);
    expect((await stores().log.entryRange(3, 1)).map((e) => Buffer.from(e))).toEqual([entries[3]]);
  });

  it('keeps each checkpoint, the latest one read back as recorded', async () => {
    const latest = await stores().log.latestCheckpoint();
    expect(latest).toMatchObject({ treeSize: 5, note: 'log\n5\n', cosignatures: [] });
    expect(latest?.rootHash.equals(Buffer.from(hashOf(1, 5)))).toBe(true);
    expect(latest?.createdAt).toBeInstanceOf(Date);
    expect(await stores().log.checkpointAt(2)).toMatchObject({ treeSize: 2, note: 'log\n2\n' });
    expect(await stores().log.checkpointAt(3)).toBeUndefined();
  });

  it('serves the recorded nodes by range and by key', async () => {
    const range = await stores().log.nodeRange(0, 1, 3);
    expect(range).toEqual([hashOf(0, 1), hashOf(0, 2), hashOf(0, 3)]);
    const found = await stores()
      .log.nodeStore()
      .getNodes([
        { level: 0, index: 4 },
        { level: 0, index: 9 },
      ]);
    expect(found.get(nodeId({ level: 0, index: 4 }))).toEqual(hashOf(0, 4));
    expect(found.has(nodeId({ level: 0, index: 9 }))).toBe(false);
  });

  it('writes nothing of a seal that fails', async () => {
    await queue(stores(), 1);
    const failing = stores().log.withSealLock(async (tx) => {
      const pending = await tx.pending(10);
      await tx.recordLeaves({
        firstIndex: 5,
        entries: pending,
        nodes: [{ level: 0, index: 5, hash: hashOf(0, 5) }],
      });
      throw new Error('the signer failed');
    });
    await expect(failing).rejects.toThrow('the signer failed');
    expect(await stores().log.pendingCount()).toBe(1);
    expect(await stores().log.nodeRange(0, 5, 1)).toEqual([]);
    expect((await stores().log.latestCheckpoint())?.treeSize).toBe(5);
  });

  it('lets one seal at a time: a second waits and sees what the first committed', async () => {
    await queue(stores(), 2);
    const order: string[] = [];
    const first = stores().log.withSealLock(async (tx) => {
      order.push('first in');
      const pending = await tx.pending(1);
      await sleep(200);
      await tx.recordLeaves({
        firstIndex: 5,
        entries: pending,
        nodes: [{ level: 0, index: 5, hash: hashOf(0, 5) }],
      });
      await tx.recordCheckpoint({ treeSize: 6, rootHash: Buffer.alloc(32, 6), note: 'log\n6\n' });
      order.push('first out');
    });
    await sleep(50);
    const second = stores().log.withSealLock(async (tx) => {
      order.push('second in');
      return { size: (await tx.latestCheckpoint())?.treeSize, pending: await tx.pending(10) };
    });
    const [, seen] = await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
    expect(seen.size).toBe(6);
    expect(seen.pending).toHaveLength(2);
  });

  it('records a cosignature once per witness and size, and the size the witness reached', async () => {
    const witness = unique('witness');
    await stores().log.recordCosignature({ witness, treeSize: 5, line: `— ${witness} AAAA` });
    await stores().log.recordCosignature({ witness, treeSize: 5, line: `— ${witness} AAAA` });
    expect(await stores().log.witnessSize(witness)).toBe(5);
    await stores().log.recordCosignature({ witness, treeSize: 6, line: `— ${witness} BBBB` });
    expect(await stores().log.witnessSize(witness)).toBe(6);
    const latest = await stores().log.latestCheckpoint();
    expect(latest?.cosignatures).toEqual([{ witness, line: `— ${witness} BBBB` }]);
  });
};

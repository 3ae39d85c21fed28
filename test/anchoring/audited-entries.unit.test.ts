import { describe, expect, it } from 'vitest';
import { AuditedEntries, LogEntriesTampered } from '../../src/anchoring/audited-entries.js';
import type { CheckpointRecord } from '../../src/anchoring/log-store.js';
import { mth, refLeafHash } from '../helpers/merkle-reference.js';

const root = (entries: Uint8Array[]) => mth(entries.map(refLeafHash));

/**
 * The walk over the sealed entries: incremental, what it keeps applied only once the entries
 * give the signed root, and a log that did not verify refused from then on without reading it.
 */

const entry = (i: number) => new TextEncoder().encode(`entry ${i}`);

/** A log in memory: entries by leaf index and checkpoints over them (the reference root). */
function memoryLog(count: number) {
  const entries = Array.from({ length: count }, (_, i) => entry(i));
  const state = { size: count, reads: 0, root: undefined as Uint8Array | undefined };
  const checkpoint = (): CheckpointRecord => ({
    treeSize: state.size,
    rootHash: Buffer.from(state.root ?? root(entries.slice(0, state.size))),
    note: '',
    createdAt: new Date(),
  });
  return {
    entries,
    state,
    source: {
      latestCheckpoint: async () => (state.size === 0 ? undefined : checkpoint()),
      entryRange: async (start: number, n: number) => {
        state.reads += 1;
        return entries.slice(start, Math.min(start + n, state.size));
      },
    },
  };
}

function audit(log: ReturnType<typeof memoryLog>, signed = async () => true) {
  const kept: number[] = [];
  const entries = new AuditedEntries<number>({
    log: log.source,
    checkpointSigned: signed,
    select: (bytes, index) => (bytes.length > 0 && index % 3 === 0 ? index : undefined),
    accept: (items) => kept.push(...items),
  });
  return { entries, kept };
}

describe('AuditedEntries', () => {
  it('verifies the entries against the root and reads only new leaves on the next call', async () => {
    const log = memoryLog(2_500);
    const { entries, kept } = audit(log);
    expect(await entries.catchUp()).toBe(2_500);
    expect(log.state.reads).toBe(3);
    expect(kept).toHaveLength(834);
    log.entries.push(entry(2_500), entry(2_501));
    log.state.size = 2_502;
    expect(await entries.catchUp()).toBe(2_502);
    expect(log.state.reads).toBe(4);
    expect(await entries.catchUp()).toBe(2_502);
    expect(log.state.reads).toBe(4);
  });

  it('an entry edited: nothing kept, refused, and refused again without reading', async () => {
    const log = memoryLog(10);
    const { entries, kept } = audit(log);
    log.state.root = root(log.entries);
    log.entries[3] = new TextEncoder().encode('edited');
    await expect(entries.catchUp()).rejects.toThrow(LogEntriesTampered);
    expect(kept).toEqual([]);
    const reads = log.state.reads;
    await expect(entries.catchUp()).rejects.toThrow(/do not give the root/);
    expect(log.state.reads).toBe(reads);
  });

  it('a leaf missing, an unsigned checkpoint, a checkpoint older than one verified: refused', async () => {
    const missing = memoryLog(10);
    missing.state.root = root(missing.entries);
    missing.entries.splice(4, 1);
    await expect(audit(missing).entries.catchUp()).rejects.toThrow(/holds 9 of their 10/);

    const unsigned = audit(memoryLog(4), async () => false);
    await expect(unsigned.entries.catchUp()).rejects.toThrow(/not signed/);

    const rolledBack = memoryLog(8);
    const { entries } = audit(rolledBack);
    await entries.catchUp();
    rolledBack.state.size = 5;
    await expect(entries.catchUp()).rejects.toThrow(/older than one verified/);
  });
});

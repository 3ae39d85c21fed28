import { compactRangeRoot } from './compact-range.js';
import type { CheckpointRecord } from './log-store.js';
import { equalHashes, leafHash, nodeHash } from './merkle.js';
import type { TileStore } from './tiles.js';

/**
 * The log's sealed entries as evidence the service can check itself: each entry's bytes are read
 * from the store, hashed, and folded into a compact range whose root must be the root the latest
 * signed checkpoint commits to. Nothing the store says about the entries is trusted (not the
 * stored leaf hashes, not the tree's nodes, not a column naming what an entry is about): only the
 * entry bytes against a checkpoint signed with the log's key, which the store does not hold. An
 * entry row deleted, edited or moved after its seal makes the root differ, so the entries are
 * refused as a whole.
 *
 * The walk is incremental: the verified size and compact range stay in this process, so each
 * catch-up reads only the leaves sealed since the last one, and what was verified once stays
 * known here even if the rows are deleted later.
 */

/** What the auditor reads: the latest checkpoint and the entries by leaf index. */
export interface AuditedLogSource extends Pick<TileStore, 'entryRange'> {
  latestCheckpoint(): Promise<CheckpointRecord | undefined>;
}

/** Entries read by one query (one page of a catch-up). */
const PAGE = 1_024;
/** Entries hashed between two turns of the event loop. */
const YIELD_EVERY = 512;

/** The log's entries do not give the root its signed checkpoint commits to. */
export class LogEntriesTampered extends Error {
  override name = 'LogEntriesTampered';
}

export interface AuditedEntriesOptions<T> {
  log: AuditedLogSource;
  /** Whether the checkpoint's note is signed by the log's key (size and root as stored). */
  checkpointSigned(checkpoint: CheckpointRecord): Promise<boolean>;
  /** What the caller keeps of an entry (undefined: nothing); applied only once verified. */
  select(entry: Uint8Array, leafIndex: number): T | undefined;
  /** Told of what `select` kept, once the leaves it came from verified. */
  accept(items: T[]): void;
}

export class AuditedEntries<T> {
  private verifiedSize = 0;
  private range: { level: number; index: number; hash: Uint8Array }[] = [];
  /**
   * Why the entries did not verify, once they did not: later checkpoints extend the same tree,
   * so they cannot verify either; refused from then on without reading the log again (a
   * damaged store is restored and the process restarted).
   */
  private failed: string | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: AuditedEntriesOptions<T>) {}

  /**
   * Verifies the leaves sealed since the last call against the latest signed checkpoint and
   * returns the size verified; throws LogEntriesTampered when they do not give its root. One
   * walk at a time: concurrent callers share it.
   */
  catchUp(): Promise<number> {
    this.running ??= this.walk().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async walk(): Promise<number> {
    if (this.failed !== undefined) throw new LogEntriesTampered(this.failed);
    const checkpoint = await this.options.log.latestCheckpoint();
    if (!checkpoint || checkpoint.treeSize === this.verifiedSize) return this.verifiedSize;
    try {
      await this.verify(checkpoint);
    } catch (err) {
      if (err instanceof LogEntriesTampered) this.failed = err.message;
      throw err;
    }
    return this.verifiedSize;
  }

  private async verify(checkpoint: CheckpointRecord): Promise<void> {
    const size = checkpoint.treeSize;
    if (size < this.verifiedSize) {
      throw new LogEntriesTampered(
        `the latest checkpoint (size ${size}) is older than one verified before (${this.verifiedSize})`,
      );
    }
    if (!(await this.options.checkpointSigned(checkpoint))) {
      throw new LogEntriesTampered(`the checkpoint of size ${size} is not signed by the log's key`);
    }
    const range = this.range.map((node) => ({ ...node }));
    const kept: T[] = [];
    for (let start = this.verifiedSize; start < size; start += PAGE) {
      const count = Math.min(PAGE, size - start);
      const entries = await this.options.log.entryRange(start, count);
      if (entries.length !== count) {
        throw new LogEntriesTampered(
          `leaves ${start}..${start + count - 1} of the signed tree: the store holds ${entries.length} of their ${count} entries`,
        );
      }
      await this.fold(range, entries, start, kept);
    }
    const root = compactRangeRoot(range.map((node) => node.hash));
    if (!equalHashes(root, checkpoint.rootHash)) {
      throw new LogEntriesTampered(
        `the stored entries do not give the root of the signed checkpoint of size ${size}`,
      );
    }
    this.range = range;
    this.verifiedSize = size;
    if (kept.length > 0) this.options.accept(kept);
  }

  /** Hashes `entries` (leaves from `start`) onto `range`, keeping what `select` picks. */
  private async fold(
    range: { level: number; index: number; hash: Uint8Array }[],
    entries: Uint8Array[],
    start: number,
    kept: T[],
  ): Promise<void> {
    for (const [i, entry] of entries.entries()) {
      let node = { level: 0, index: start + i, hash: leafHash(entry) };
      while (node.index % 2 === 1) {
        const left = range.pop() as { hash: Uint8Array };
        node = {
          level: node.level + 1,
          index: (node.index - 1) / 2,
          hash: nodeHash(left.hash, node.hash),
        };
      }
      range.push(node);
      const item = this.options.select(entry, start + i);
      if (item !== undefined) kept.push(item);
      if ((i + 1) % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

import type { NodeStore, StoredNode } from './node-store.js';
import type { TileStore } from './tiles.js';
import type { WitnessStore } from './witness/witnessing.js';

/**
 * The storage the log needs, declared by the log and implemented by `src/storage/log.ts`
 * (Tessera's `Driver` idea): the queue of entries, perfect-subtree nodes, signed checkpoints.
 */

export interface CheckpointRecord {
  treeSize: number;
  rootHash: Buffer;
  /** The note as the log signed it (its own signature line only). */
  note: string;
  createdAt: Date;
  /** Witness cosignature lines (without newline), by witness name. */
  cosignatures?: { witness: string; line: string }[];
}

export interface PendingEntry {
  seq: number;
  leafHash: Buffer;
}

/** Leaves [firstIndex, firstIndex + entries.length) appended: their positions and new nodes. */
export interface LeavesRecord {
  firstIndex: number;
  entries: PendingEntry[];
  nodes: StoredNode[];
}

/** The checkpoint a seal ends with. */
export type NewCheckpoint = Omit<CheckpointRecord, 'createdAt' | 'cosignatures'>;

/** Reads that see the latest committed state. */
export interface LogReader {
  nodeStore(): NodeStore;
  latestCheckpoint(): Promise<CheckpointRecord | undefined>;
}

/**
 * What one seal does, inside the store's transaction and under its cluster-wide lock: pages of
 * leaves (each sees the nodes of the pages before it), then one checkpoint.
 */
export interface SealTransaction extends LogReader {
  /** The oldest entries not yet in the log (those recorded in this transaction excluded). */
  pending(limit: number): Promise<PendingEntry[]>;
  recordLeaves(leaves: LeavesRecord): Promise<void>;
  recordCheckpoint(checkpoint: NewCheckpoint): Promise<void>;
}

/** A seal computed outside the store from the log at size `start`: its pages and checkpoint. */
export interface SealWrite {
  start: number;
  pages: LeavesRecord[];
  checkpoint: NewCheckpoint;
}

export interface LogStore extends LogReader, TileStore, WitnessStore {
  /**
   * Writes a prepared seal, all of it or nothing, if the log is still of size `start` (under
   * the seal lock); false, nothing written, when another seal committed first.
   */
  commitSeal(seal: SealWrite): Promise<boolean>;
  checkpointAt(treeSize: number): Promise<CheckpointRecord | undefined>;
  /** The newest checkpoint cosigned by at least `quorum` of `witnesses` (names), with its cosignatures. */
  latestWitnessedCheckpoint(
    witnesses: readonly string[],
    quorum: number,
  ): Promise<CheckpointRecord | undefined>;
  /** Runs `fn` holding the seal lock; everything it writes commits or rolls back together. */
  withSealLock<T>(fn: (tx: SealTransaction) => Promise<T>): Promise<T>;
  /** The oldest committed entries not yet in the log with a `seq` above `afterSeq` (any if undefined). */
  pendingAfter(afterSeq: number | undefined, limit: number): Promise<PendingEntry[]>;
  pendingCount(): Promise<number>;
}

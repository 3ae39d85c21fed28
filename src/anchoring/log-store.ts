import type { NodeStore, StoredNode } from './node-store.js';
import type { TileStore } from './tiles.js';

/**
 * The storage the log needs, declared by the log and implemented by `src/storage/log.ts`
 * (Tessera's `Driver` idea): the queue of entries, perfect-subtree nodes, signed checkpoints.
 */

export interface CheckpointRecord {
  treeSize: number;
  rootHash: Buffer;
  note: string;
  createdAt: Date;
}

export interface PendingEntry {
  seq: number;
  leafHash: Buffer;
}

export interface AppendRecord {
  firstIndex: number;
  entries: PendingEntry[];
  nodes: StoredNode[];
  checkpoint: Omit<CheckpointRecord, 'createdAt'>;
}

/** Reads that see the latest committed state. */
export interface LogReader {
  nodeStore(): NodeStore;
  latestCheckpoint(): Promise<CheckpointRecord | undefined>;
}

/** What one seal does, inside the store's transaction and under its cluster-wide lock. */
export interface SealTransaction extends LogReader {
  pending(limit: number): Promise<PendingEntry[]>;
  recordAppend(append: AppendRecord): Promise<void>;
}

export interface LogStore extends LogReader, TileStore {
  checkpointAt(treeSize: number): Promise<CheckpointRecord | undefined>;
  /** Runs `fn` holding the seal lock; everything it writes commits or rolls back together. */
  withSealLock<T>(fn: (tx: SealTransaction) => Promise<T>): Promise<T>;
  pendingCount(): Promise<number>;
}

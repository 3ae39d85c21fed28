import type { Knex } from 'knex';
import { CHANGE_CHANNEL, type ChangeFeed } from './change-feed.js';
import { APPEND_SLICE, oneStatementSeal, recordCheckpoint, recordLeaves } from './log-seal.js';
import type { NodeKey, NodeStore } from '../anchoring/index.js';
import { nodeId } from '../anchoring/index.js';
import type {
  CheckpointRecord,
  LogStore,
  PendingEntry,
  SealTransaction,
  SealWrite,
} from '../anchoring/log-store.js';

type Db = Knex | Knex.Transaction;

/** Arbitrary but fixed key of the advisory lock that serialises sealing across replicas. */
const SEAL_LOCK_KEY = 0x5ea1_0c;

/** Storage of the Merkle log: entries (the queue), perfect-subtree nodes, checkpoints. */
export class LogRepository implements LogStore {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    /**
     * The store is one session that only this process writes (the embedded store): knex's pool
     * holds its only connection, and every statement waits for this thread between the
     * statements of a transaction.
     */
    private readonly oneSession = false,
  ) {}

  /** A NodeStore over `log_nodes`, one query per lookup batch. */
  nodeStore(db: Db = this.knex): NodeStore {
    return {
      async getNodes(keys: readonly NodeKey[]) {
        const found = new Map<string, Uint8Array>();
        if (keys.length === 0) return found;
        const tuples = keys.map(() => '(?::int, ?::bigint)').join(', ');
        const rows = (await db('log_nodes')
          .select('level', 'idx', 'hash')
          .whereRaw(
            `(level, idx) in (${tuples})`,
            keys.flatMap((k) => [k.level, k.index]),
          )) as {
          level: number;
          idx: string | number;
          hash: Buffer;
        }[];
        for (const r of rows) {
          found.set(nodeId({ level: r.level, index: Number(r.idx) }), new Uint8Array(r.hash));
        }
        return found;
      },
    };
  }

  /** The latest checkpoint with its witness cosignatures (one query). */
  async latestCheckpoint(db: Db = this.knex): Promise<CheckpointRecord | undefined> {
    const row = await withCosignatures(db, db('log_checkpoints as c'))
      .orderBy('c.tree_size', 'desc')
      .first();
    return row ? { ...toCheckpoint(row), cosignatures: parseJson(row.cosignatures) } : undefined;
  }

  /**
   * The newest checkpoint cosigned by at least `quorum` of `witnesses`, with its cosignatures
   * (one query). It starts from the cosignatures, newest first, so it reads no further back than
   * the newest witnessed size (or all the cosignatures there are, when none is).
   */
  async latestWitnessedCheckpoint(
    witnesses: readonly string[],
    quorum: number,
  ): Promise<CheckpointRecord | undefined> {
    const witnessed = this.knex('log_cosignatures')
      .select('tree_size')
      .whereRaw('witness = any(?::text[])', [[...witnesses]])
      .groupBy('tree_size')
      .havingRaw('count(*) >= ?', [quorum])
      .orderBy('tree_size', 'desc')
      .limit(1);
    const row = await withCosignatures(this.knex, this.knex('log_checkpoints as c'))
      .where('c.tree_size', witnessed)
      .first();
    return row ? { ...toCheckpoint(row), cosignatures: parseJson(row.cosignatures) } : undefined;
  }

  async witnessSize(witness: string): Promise<number> {
    const row = (await this.knex('witness_state').where({ witness }).first('tree_size')) as
      { tree_size: string | number } | undefined;
    return row ? Number(row.tree_size) : 0;
  }

  async recordCosignature(input: { witness: string; treeSize: number; line: string }) {
    await this.knex.transaction(async (trx) => {
      await trx('log_cosignatures')
        .insert({ tree_size: input.treeSize, witness: input.witness, line: input.line })
        .onConflict(['tree_size', 'witness'])
        .ignore();
      await trx.raw(
        `insert into witness_state (witness, tree_size) values (?, ?)
         on conflict (witness) do update set tree_size = excluded.tree_size`,
        [input.witness, input.treeSize],
      );
      // every replica's `Prefer: wait=N, witnessed` answers look again (cosignature-notices.ts)
      await trx.raw(`select pg_notify(?, current_schema() || '.log_cosignatures')`, [
        CHANGE_CHANNEL,
      ]);
    });
  }

  async checkpointAt(treeSize: number): Promise<CheckpointRecord | undefined> {
    const row = await this.knex('log_checkpoints').where({ tree_size: treeSize }).first();
    return row ? toCheckpoint(row) : undefined;
  }

  /**
   * Runs `fn` holding the cluster-wide seal lock (transaction-scoped advisory lock), so that
   * only one replica appends at a time; everything `fn` writes commits or rolls back together.
   */
  async withSealLock<T>(fn: (tx: SealTransaction) => Promise<T>): Promise<T> {
    let appended = false;
    const result = await this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [SEAL_LOCK_KEY]);
      return fn({
        nodeStore: () => this.nodeStore(trx),
        latestCheckpoint: () => this.latestCheckpoint(trx),
        pending: (limit) => this.pending(trx, limit),
        recordLeaves: (leaves) => {
          appended = true;
          return recordLeaves(trx, leaves);
        },
        recordCheckpoint: (checkpoint) => recordCheckpoint(trx, checkpoint),
      });
    });
    // entries placed now: this replica's cached receipts waiting for a position go at once
    // (others: migration 023)
    if (appended) this.changes.announce('receipts', 'sealed');
    return result;
  }

  /**
   * A prepared seal, written if the log is still of size `start`. On one session (the embedded
   * store) a seal of one page is one statement: a transaction there holds the store's only
   * connection from its BEGIN to its COMMIT, and between its statements each waits for this
   * process's event loop to come round, which under load held every issuance's commit back for
   * 170 ms per seal on average (four seals a second). Elsewhere, and for a larger seal, one
   * transaction under the seal lock.
   */
  async commitSeal(seal: SealWrite): Promise<boolean> {
    const [page, ...more] = seal.pages;
    if (!this.oneSession || !page || more.length > 0 || page.entries.length > APPEND_SLICE) {
      return this.withSealLock(async (tx) => {
        if (((await tx.latestCheckpoint())?.treeSize ?? 0) !== seal.start) return false;
        for (const leaves of seal.pages) await tx.recordLeaves(leaves);
        await tx.recordCheckpoint(seal.checkpoint);
        return true;
      });
    }
    const written = await oneStatementSeal(this.knex, seal.start, page, seal.checkpoint);
    if (written) this.changes.announce('receipts', 'sealed');
    return written;
  }

  pendingAfter(afterSeq: number | undefined, limit: number): Promise<PendingEntry[]> {
    return this.pending(this.knex, limit, afterSeq);
  }

  private async pending(db: Db, limit: number, afterSeq?: number): Promise<PendingEntry[]> {
    const query = db('log_pending as p')
      .join('log_entries as e', 'e.seq', 'p.seq')
      .select('p.seq', 'e.leaf_hash')
      .orderBy('p.seq')
      .limit(limit);
    if (afterSeq !== undefined) query.where('p.seq', '>', afterSeq);
    const rows = (await query) as { seq: string | number; leaf_hash: Buffer }[];
    return rows.map((r) => ({ seq: Number(r.seq), leafHash: Buffer.from(r.leaf_hash) }));
  }

  async nodeRange(level: number, start: number, count: number): Promise<Uint8Array[]> {
    const rows = (await this.knex('log_nodes')
      .select('hash')
      .where('level', level)
      .andWhere('idx', '>=', start)
      .andWhere('idx', '<', start + count)
      .orderBy('idx')) as { hash: Buffer }[];
    return rows.map((r) => new Uint8Array(r.hash));
  }

  /** The entries' bytes (receipt or revocation entries, docs/log.md). */
  async entryRange(start: number, count: number): Promise<Uint8Array[]> {
    const rows = (await this.knex('log_leaves as l')
      .join('log_entries as e', 'e.seq', 'l.seq')
      .select('e.entry')
      .where('l.leaf_index', '>=', start)
      .andWhere('l.leaf_index', '<', start + count)
      .orderBy('l.leaf_index')) as { entry: Uint8Array }[];
    return rows.map((r) => new Uint8Array(r.entry));
  }

  async pendingCount(): Promise<number> {
    const row = (await this.knex('log_pending').count({ n: '*' }).first()) as
      { n: string | number } | undefined;
    return Number(row?.n ?? 0);
  }
}

/** `c.*` of a `log_checkpoints as c` query and its cosignature lines, as `cosignatures`. */
function withCosignatures(db: Db, query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.select(
    'c.*',
    db.raw(`coalesce((select json_agg(json_build_object('witness', s.witness, 'line', s.line)
      order by s.witness) from log_cosignatures s where s.tree_size = c.tree_size), '[]')
      as cosignatures`),
  );
}

function toCheckpoint(row: {
  tree_size: string | number;
  root_hash: Buffer;
  note: string;
  created_at: Date;
}) {
  return {
    treeSize: Number(row.tree_size),
    rootHash: Buffer.from(row.root_hash),
    note: row.note,
    createdAt: row.created_at,
  };
}

/** json_agg comes back parsed from pg and as text from some drivers. */
function parseJson(value: unknown): { witness: string; line: string }[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as {
    witness: string;
    line: string;
  }[];
}

import type { Knex } from 'knex';
import type { LeavesRecord, NewCheckpoint } from '../anchoring/log-store.js';
import { outboxCtes } from './webhook-outbox.js';

/**
 * The SQL of a seal's writes to the Merkle log's tables: a page's perfect-subtree nodes and leaf
 * positions (its entries out of the queue and into the log), the `receipt.anchored` webhook
 * events of the receipts it places, and the checkpoint; or all of one page in one statement.
 * LogRepository (./log.ts) runs them under its seal lock, or the one statement on its own.
 */

/** Nodes, or entries, written by one statement of a seal. */
export const APPEND_SLICE = 4_096;

/**
 * One page, the checkpoint and the page's `receipt.anchored` webhook events in one statement
 * (atomic, as a transaction is), each part guarded by the log's size: written only when it is
 * still `start`. Data-modifying CTEs run
 * once and to completion whether or not the final query reads them.
 */
export async function oneStatementSeal(
  knex: Knex,
  start: number,
  page: LeavesRecord,
  checkpoint: NewCheckpoint,
): Promise<boolean> {
  const { nodes, entries, firstIndex } = page;
  const result = (await knex.raw(
    `with ok as (select coalesce(max(tree_size), 0) = ?::bigint as fresh from log_checkpoints),
       n as (insert into log_nodes (level, idx, hash)
         select s.level, s.idx, substring(?::bytea from (s.n::int - 1) * 32 + 1 for 32)
           from unnest(?::int[], ?::bigint[]) with ordinality as s(level, idx, n), ok
           where ok.fresh),
       s as (select * from unnest(?::bigint[], ?::bigint[]) as s(seq, idx)),
       d as (delete from log_pending p using s, ok where ok.fresh and p.seq = s.seq),
       l as (insert into log_leaves (leaf_index, seq)
         select s.idx, s.seq from s, ok where ok.fresh),
       c as (insert into log_checkpoints (tree_size, root_hash, note)
         select ?::bigint, ?::bytea, ? from ok where ok.fresh returning tree_size),
       placed as (
         select r.tenant, r.id::text as subject, '{}'::jsonb as data
         from s join log_entries e on e.seq = s.seq join receipts r on r.id = e.receipt_id, ok
         where ok.fresh
       ), ${outboxCtes('placed', 'receipt.anchored')}
     select count(*)::int as written from c`,
    [
      start,
      Buffer.concat(nodes.map((n) => n.hash)),
      nodes.map((n) => n.level),
      nodes.map((n) => n.index),
      entries.map((e) => e.seq),
      entries.map((_, j) => firstIndex + j),
      checkpoint.treeSize,
      checkpoint.rootHash,
      checkpoint.note,
    ],
  )) as { rows: { written: number }[] };
  return result.rows[0]?.written === 1;
}

/** Persists one page of a seal: the new nodes and the leaf positions. */
export async function recordLeaves(trx: Knex.Transaction, input: LeavesRecord): Promise<void> {
  // constant statements over slices: each slice is a few milliseconds of work in this
  // process (a seal never holds the event loop for long), one transaction for all of them
  for (let i = 0; i < input.nodes.length; i += APPEND_SLICE) {
    const slice = input.nodes.slice(i, i + APPEND_SLICE);
    await trx.raw(
      `insert into log_nodes (level, idx, hash)
         select s.level, s.idx, substring(?::bytea from (s.n::int - 1) * 32 + 1 for 32)
           from unnest(?::int[], ?::bigint[]) with ordinality as s(level, idx, n)`,
      [
        Buffer.concat(slice.map((n) => n.hash)),
        slice.map((n) => n.level),
        slice.map((n) => n.index),
      ],
    );
  }
  for (let i = 0; i < input.entries.length; i += APPEND_SLICE) {
    const slice = input.entries.slice(i, i + APPEND_SLICE);
    // out of the queue and into the log: inserts and deletes, never an UPDATE (migration 015)
    await trx.raw(
      `with s as (select * from unnest(?::bigint[], ?::bigint[]) as s(seq, idx)),
         d as (delete from log_pending p using s where p.seq = s.seq)
       insert into log_leaves (leaf_index, seq) select s.idx, s.seq from s`,
      [slice.map((e) => e.seq), slice.map((_, j) => input.firstIndex + i + j)],
    );
  }
  await recordAnchoredEvents(trx, input.firstIndex, input.entries.length);
}

/**
 * The `receipt.anchored` webhook events of the receipts this page placed, in the seal's
 * transaction: they commit with the leaves and the checkpoint that proves them, or not at all.
 */
async function recordAnchoredEvents(trx: Knex.Transaction, first: number, count: number) {
  if (count === 0) return;
  await trx.raw(
    `with placed as (
       select r.tenant, r.id::text as subject, '{}'::jsonb as data
       from log_leaves ll join log_entries e on e.seq = ll.seq join receipts r on r.id = e.receipt_id
       where ll.leaf_index >= ? and ll.leaf_index < ?
     ), ${outboxCtes('placed', 'receipt.anchored')}
     select 1`,
    [first, first + count],
  );
}

export async function recordCheckpoint(trx: Knex.Transaction, checkpoint: NewCheckpoint) {
  await trx('log_checkpoints').insert({
    tree_size: checkpoint.treeSize,
    root_hash: checkpoint.rootHash,
    note: checkpoint.note,
  });
}

import type { Knex } from 'knex';

/**
 * Log entries are written once and never changed. Two tables take what a seal used to write into
 * them:
 *
 * - `log_pending`: the queue, one row per entry not yet in the log, in `seq` order. A statement
 *   trigger queues every new entry, whoever writes it (issuance, revocation, a migration).
 * - `log_leaves`: each sealed entry's position (`leaf_index`) and when it was sealed.
 *
 * A seal does not set `leaf_index` on the sealed entries' rows. An UPDATE of a row whose indexed
 * column changes writes a whole new version of it, a new entry in each of its four indexes, and
 * often a lock record first; the old version waits for VACUUM. A seal deletes queue rows and
 * inserts positions instead. For a seal of 12,000 entries that step takes 45-74 ms instead of
 * 107-195, and the seal's WAL (`pg_waldump`) is 630 bytes per entry instead of 906. Every commit
 * of an issuance that overlaps a seal flushes the seal's WAL with its own, so this is latency for
 * everyone, not only the sealer's work.
 *
 * `revokes` is unique only where set: receipt entries (nearly all) no longer add a NULL to it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create table log_pending (seq bigint primary key)');
  await knex.raw(`create table log_leaves (
    leaf_index bigint primary key,
    seq bigint not null unique,
    anchored_at timestamptz not null default now())`);
  await knex.raw(`insert into log_leaves (leaf_index, seq, anchored_at)
    select leaf_index, seq, coalesce(anchored_at, now()) from log_entries
    where leaf_index is not null`);
  await knex.raw(
    'insert into log_pending (seq) select seq from log_entries where leaf_index is null',
  );
  // the queue in this schema whatever the writer's search_path (set from the migration's)
  await knex.raw(`
    create or replace function log_entries_queue() returns trigger
    language plpgsql set search_path from current as $$
    begin
      insert into log_pending (seq) select seq from added;
      return null;
    end $$`);
  await knex.raw(`create trigger log_entries_queue after insert on log_entries
    referencing new table as added for each statement execute function log_entries_queue()`);
  // a seal changes receipts' state now by inserting positions (see migration 013)
  await knex.raw(`create trigger log_leaves_notify_state
    after insert or update or delete or truncate on log_leaves
    for each statement execute function receipts_notify_state()`);
  await knex.raw('drop index log_entries_pending');
  await knex.raw('alter table log_entries drop column leaf_index, drop column anchored_at');
  await knex.raw('alter table log_entries drop constraint log_entries_revokes_unique');
  await knex.raw(`create unique index log_entries_revokes_unique on log_entries (revokes)
    where revokes is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index log_entries_revokes_unique');
  await knex.raw(
    'alter table log_entries add constraint log_entries_revokes_unique unique (revokes)',
  );
  await knex.raw(`alter table log_entries add column leaf_index bigint
    constraint log_entries_leaf_index_unique unique, add column anchored_at timestamptz`);
  await knex.raw(`update log_entries e set leaf_index = l.leaf_index, anchored_at = l.anchored_at
    from log_leaves l where l.seq = e.seq`);
  await knex.raw('create index log_entries_pending on log_entries (seq) where leaf_index is null');
  await knex.raw('drop trigger log_entries_queue on log_entries');
  await knex.raw('drop function log_entries_queue()');
  await knex.raw('drop table log_leaves');
  await knex.raw('drop table log_pending');
}

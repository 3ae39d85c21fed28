import type { Knex } from 'knex';

/**
 * Receipt state notifications say what changed (src/storage/change-feed.ts), so that a replica
 * drops only the cached receipts a change made stale instead of all of them:
 *
 * - a seal (rows inserted into `log_leaves`) notifies `<schema>.receipts:sealed`: receipts whose
 *   entries all had a position keep it, only those waiting for one are dropped;
 * - a changed receipt row or a new revocation audit row notifies `<schema>.receipts:<id>` (a
 *   revocation writes both in one transaction, and PostgreSQL delivers the same payload once);
 * - anything else (a deleted or truncated row, a position rewritten, an entry changed by hand)
 *   notifies `<schema>.receipts`: every cached receipt goes.
 *
 * A replica older than this migration does not read the narrower payloads (docs/operations.md,
 * Upgrades).
 */
const FULL: [table: string, events: string][] = [
  ['receipts', 'delete or truncate'],
  ['revocations', 'update or delete or truncate'],
  ['log_leaves', 'update or delete or truncate'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function receipts_notify_state() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', tg_table_schema || '.receipts');
      return null;
    end $$`);
  await knex.raw(`
    create or replace function receipts_notify_sealed() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', tg_table_schema || '.receipts:sealed');
      return null;
    end $$`);
  // the receipt's id is the column named by the trigger's argument, old and new on an update
  await knex.raw(`
    create or replace function receipts_notify_receipt() returns trigger
    language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        perform pg_notify('receipts_changes',
          tg_table_schema || '.receipts:' || (to_jsonb(old) ->> tg_argv[0]));
      end if;
      perform pg_notify('receipts_changes',
        tg_table_schema || '.receipts:' || (to_jsonb(new) ->> tg_argv[0]));
      return null;
    end $$`);
  for (const table of ['receipts', 'revocations', 'log_leaves']) {
    await knex.raw(`drop trigger ${table}_notify_state on ${table}`);
  }
  for (const [table, events] of FULL) {
    await knex.raw(`create trigger ${table}_notify_state after ${events} on ${table}
      for each statement execute function receipts_notify_state()`);
  }
  await knex.raw(`create trigger receipts_notify_receipt after update on receipts
    for each row execute function receipts_notify_receipt('id')`);
  await knex.raw(`create trigger revocations_notify_receipt after insert on revocations
    for each row execute function receipts_notify_receipt('receipt_id')`);
  await knex.raw(`create trigger log_leaves_notify_sealed after insert on log_leaves
    for each statement execute function receipts_notify_sealed()`);
}

/** Back to migrations 013 and 015: every change to a receipt's state notifies `receipts`. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger log_leaves_notify_sealed on log_leaves');
  await knex.raw('drop trigger revocations_notify_receipt on revocations');
  await knex.raw('drop trigger receipts_notify_receipt on receipts');
  const all: [string, string][] = [
    ['receipts', 'update or delete or truncate'],
    ['revocations', 'insert or update or delete or truncate'],
    ['log_leaves', 'insert or update or delete or truncate'],
  ];
  for (const [table, events] of all) {
    await knex.raw(`drop trigger ${table}_notify_state on ${table}`);
    await knex.raw(`create trigger ${table}_notify_state after ${events} on ${table}
      for each statement execute function receipts_notify_state()`);
  }
  await knex.raw('drop function receipts_notify_receipt()');
  await knex.raw('drop function receipts_notify_sealed()');
  await knex.raw(`
    create or replace function receipts_notify_state() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', 'receipts');
      return null;
    end $$`);
}

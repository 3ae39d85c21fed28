import type { Knex } from 'knex';

/**
 * A change to a stored receipt's state notifies `receipts_changes` with `receipts`, so every
 * replica drops its cached receipts (src/storage/receipts.ts): a revocation (the receipt row,
 * its audit row and its log entry, one transaction) and a seal (log entries get their leaf
 * index). New receipts and new log entries notify nothing: no cached receipt changes with them.
 */
const TRIGGERS: [table: string, events: string][] = [
  ['receipts', 'update or delete or truncate'],
  ['revocations', 'insert or update or delete or truncate'],
  ['log_entries', 'update or delete or truncate'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function receipts_notify_state() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', 'receipts');
      return null;
    end $$`);
  for (const [table, events] of TRIGGERS) {
    await knex.raw(
      `create trigger ${table}_notify_state after ${events}
         on ${table} for each statement execute function receipts_notify_state()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of TRIGGERS)
    await knex.raw(`drop trigger if exists ${table}_notify_state on ${table}`);
  await knex.raw('drop function if exists receipts_notify_state()');
}

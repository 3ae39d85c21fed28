import type { Knex } from 'knex';

/**
 * Every change to a table the service caches in process notifies `receipts_changes` with the
 * table's name, so every replica drops its cached rows (src/storage/change-feed.ts).
 */
const TABLES = ['api_keys', 'notaries'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function receipts_notify_change() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', tg_table_name);
      return null;
    end $$`);
  for (const table of TABLES) {
    await knex.raw(
      `create trigger ${table}_notify_change after insert or update or delete or truncate
         on ${table} for each statement execute function receipts_notify_change()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES)
    await knex.raw(`drop trigger if exists ${table}_notify_change on ${table}`);
  await knex.raw('drop function if exists receipts_notify_change()');
}

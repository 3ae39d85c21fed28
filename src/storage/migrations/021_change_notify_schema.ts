import type { Knex } from 'knex';

/**
 * Change notifications name the schema beside the table (`<schema>.<table>`): `receipts_changes`
 * is one channel per database, and deployments that share a database through DATABASE_SCHEMA
 * would otherwise clear each other's caches on every change (src/storage/change-feed.ts ignores
 * the other schemas' changes).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function receipts_notify_change() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', tg_table_schema || '.' || tg_table_name);
      return null;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function receipts_notify_change() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', tg_table_name);
      return null;
    end $$`);
}

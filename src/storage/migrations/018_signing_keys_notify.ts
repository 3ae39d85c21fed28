import type { Knex } from 'knex';

/**
 * The signing keys and their endorsements are cached in process like the API keys (the key ring
 * behind every signature check, the JWKS and the verify page): every change notifies
 * `receipts_changes` so every replica drops its copy (src/storage/change-feed.ts).
 */
const TABLES = ['signing_keys', 'signing_key_endorsements'];

export async function up(knex: Knex): Promise<void> {
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
}

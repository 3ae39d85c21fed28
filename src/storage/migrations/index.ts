import type { Knex } from 'knex';
import * as m001 from './001_api_keys.js';
import * as m002 from './002_receipts.js';
import * as m003 from './003_log.js';
import * as m004 from './004_revocation.js';
import * as m005 from './005_key_endorsements.js';
import * as m006 from './006_change_notify.js';
import * as m007 from './007_receipt_hash_index.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations are imported, not globbed from disk, so the same list runs from src/ and dist/. */
const migrations: Record<string, Migration> = {
  '001_api_keys': m001,
  '002_receipts': m002,
  '003_log': m003,
  '004_revocation': m004,
  '005_key_endorsements': m005,
  '006_change_notify': m006,
  '007_receipt_hash_index': m007,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name] as Migration,
};

export async function migrate(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [
    number,
    string[],
  ];
  return applied;
}

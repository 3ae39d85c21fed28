import type { Knex } from 'knex';
import * as m001 from './001_api_keys.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations are imported, not globbed from disk, so the same list runs from src/ and dist/. */
const migrations: Record<string, Migration> = {
  '001_api_keys': m001,
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

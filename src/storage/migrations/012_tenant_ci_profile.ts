import type { Knex } from 'knex';

/**
 * A tenant may pin the CI policy profile its receipts are judged under (`ci-provenance-v2`), with
 * or without pinning repositories: both columns are optional, a row with neither is removed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenant_policies', (t) => {
    t.text('ci_profile');
    t.jsonb('ci_repositories').nullable().alter();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('tenant_policies').whereNull('ci_repositories').delete();
  await knex.schema.alterTable('tenant_policies', (t) => {
    t.dropColumn('ci_profile');
    t.jsonb('ci_repositories').notNullable().alter();
  });
}

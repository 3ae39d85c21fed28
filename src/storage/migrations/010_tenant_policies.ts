import type { Knex } from 'knex';

/** A tenant's policy: which repositories its keys may get CI receipts for (`owner/*`, `owner/repo`). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tenant_policies', (t) => {
    t.text('tenant').primary();
    t.jsonb('ci_repositories').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tenant_policies');
}

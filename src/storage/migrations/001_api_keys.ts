import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary();
    t.text('tenant').notNullable();
    t.text('name').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    /** sha256 of the secret part, hex. The secret itself is never stored. */
    t.text('secret_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['tenant']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
}

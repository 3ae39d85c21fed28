import type { Knex } from 'knex';

/**
 * Witness cosigning (c2sp.org/tlog-witness): the size each witness last cosigned, and the
 * cosignature lines of each checkpoint, served after the log's own signature line.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('witness_state', (t) => {
    t.text('witness').primary();
    t.bigInteger('tree_size').notNullable();
  });
  await knex.schema.createTable('log_cosignatures', (t) => {
    t.bigInteger('tree_size').notNullable().references('log_checkpoints.tree_size');
    t.text('witness').notNullable();
    /** The note signature line, without its newline. */
    t.text('line').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tree_size', 'witness']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('log_cosignatures');
  await knex.schema.dropTable('witness_state');
}

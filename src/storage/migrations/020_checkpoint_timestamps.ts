import type { Knex } from 'knex';

/**
 * RFC 3161 time-stamp tokens over the log's checkpoints, one per checkpoint and time-stamp
 * authority, each checked (imprint, nonce, signature, certificate) before it is written.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('checkpoint_timestamps', (t) => {
    t.bigInteger('tree_size').notNullable();
    t.text('tsa_url').notNullable();
    t.text('tsa_name').notNullable();
    t.binary('token').notNullable();
    t.timestamp('gen_time', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tree_size', 'tsa_url']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('checkpoint_timestamps');
}

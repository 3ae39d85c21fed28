import type { Knex } from 'knex';

/** The append-only Merkle log (RFC 9162 hashing) that anchors receipts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('log_entries', (t) => {
    /** Queue order: entries are sealed into the log in this order. */
    t.bigIncrements('seq').primary();
    t.uuid('receipt_id').notNullable().unique().references('receipts.id');
    /** RFC 9162 leaf hash of the 32 receipt-hash bytes. */
    t.binary('leaf_hash').notNullable();
    /** Null while PENDING; the leaf's position once a checkpoint includes it. */
    t.bigInteger('leaf_index').unique();
    t.timestamp('anchored_at', { useTz: true });
  });
  await knex.schema.raw(
    'create index log_entries_pending on log_entries (seq) where leaf_index is null',
  );
  await knex.schema.createTable('log_nodes', (t) => {
    /** Perfect subtree (level, idx) covers leaves [idx * 2^level, (idx + 1) * 2^level). */
    t.integer('level').notNullable();
    t.bigInteger('idx').notNullable();
    t.binary('hash').notNullable();
    t.primary(['level', 'idx']);
  });
  await knex.schema.createTable('log_checkpoints', (t) => {
    t.bigInteger('tree_size').primary();
    t.binary('root_hash').notNullable();
    /** The C2SP signed note, verbatim. */
    t.text('note').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('log_checkpoints');
  await knex.schema.dropTable('log_nodes');
  await knex.schema.dropTable('log_entries');
}

import type { Knex } from 'knex';

/**
 * Signed PDF receipts, one per receipt and state (issued, anchored, revoked): a PDF is rendered
 * and signed once when first asked for in a state and served from here after, so a download
 * costs no signature and every download of one state is the same file. `receipt_hash` is the
 * receipt's hash when signed: a row whose receipt no longer has that hash is never served.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('receipt_pdfs', (t) => {
    t.text('receipt_id').notNullable();
    t.text('state').notNullable();
    t.text('receipt_hash').notNullable();
    t.binary('pdf').notNullable();
    t.timestamp('signed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['receipt_id', 'state']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('receipt_pdfs');
}

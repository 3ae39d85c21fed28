import type { Knex } from 'knex';

/** GET /status/{receiptHash} finds a receipt by its hash, across tenants: one index lookup. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('receipts', (t) => {
    t.index(['receipt_hash'], 'receipts_receipt_hash_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('receipts', (t) => {
    t.dropIndex(['receipt_hash'], 'receipts_receipt_hash_idx');
  });
}

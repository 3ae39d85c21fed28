import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signing_keys', (t) => {
    t.text('kid').primary();
    t.jsonb('public_jwk').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('retired_at', { useTz: true });
  });

  await knex.schema.createTable('notaries', (t) => {
    t.text('tenant').notNullable();
    t.text('notary_id').notNullable();
    t.text('display_name').notNullable();
    t.specificType('commission_state', 'char(2)').notNullable();
    t.date('commission_expires').notNullable();
    t.text('public_key_pem').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['tenant', 'notary_id']);
  });

  await knex.schema.createTable('receipts', (t) => {
    t.uuid('id').primary();
    t.text('tenant').notNullable();
    /** The StoredReceipt minus receiptHash/receiptSignature: the one source of truth. */
    t.jsonb('body').notNullable();
    t.text('receipt_hash').notNullable();
    t.text('signature_kid');
    t.text('signature');
    t.timestamp('created_at', { useTz: true }).notNullable();
    /** False for a RON request without pdfBase64: nothing to anchor (409 on the anchor endpoint). */
    t.boolean('has_proof_artifact').notNullable();
    /** Idempotency key of CI adapter requests, unique per tenant. */
    t.text('external_id');
    t.timestamp('revoked_at', { useTz: true });
    t.text('revoked_by');
    t.index(['tenant', 'created_at', 'id'], 'receipts_tenant_page');
    t.unique(['tenant', 'external_id'], { indexName: 'receipts_tenant_external_id' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('receipts');
  await knex.schema.dropTable('notaries');
  await knex.schema.dropTable('signing_keys');
}

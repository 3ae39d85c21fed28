import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('issuers', (t) => {
    /** Globally unique: an issuer of another tenant is recognised (403), not unknown (401). */
    t.text('issuer_id').primary();
    t.text('tenant').notNullable();
    /** Raw 32-byte Ed25519 public key, base64url. */
    t.text('public_key').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  /** Audit trail: who revoked which receipt, when, and the signed authorisation they sent. */
  await knex.schema.createTable('revocations', (t) => {
    t.uuid('receipt_id').primary().references('receipts.id');
    t.text('tenant').notNullable();
    t.text('issuer_id').notNullable();
    t.uuid('api_key_id').notNullable();
    t.text('signature_timestamp').notNullable();
    t.text('issuer_signature').notNullable();
    t.timestamp('revoked_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('revocations');
  await knex.schema.dropTable('issuers');
}

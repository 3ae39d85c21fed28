import type { Knex } from 'knex';

/**
 * The notarial signatures in a document (`doc.signatures`): a notary may have its X.509 signing
 * certificate registered (`receipts notaries add --certificate`), and a tenant sets the CA
 * certificates its notaries' certificates must chain to and how a signer is tied to the
 * registered notary (`receipts tenants policy --notary-trust-anchors`), in a table of its own so
 * the CI policy's row rules stay as they are. Nothing that running replicas read changes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notaries', (t) => {
    t.text('certificate_der');
  });
  await knex.schema.createTable('tenant_notary_trust', (t) => {
    t.text('tenant').primary();
    t.jsonb('anchors').notNullable();
    t.text('signer').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tenant_notary_trust');
  await knex.schema.alterTable('notaries', (t) => {
    t.dropColumn('certificate_der');
  });
}

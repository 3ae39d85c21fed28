import type { Knex } from 'knex';

/**
 * The signing key ring's chain of trust: a key enters the trusted ring only through an
 * endorsement signed by a key already trusted (see src/receipts/key-trust.ts). A row inserted
 * into `signing_keys` by hand has no valid endorsement and is ignored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signing_key_endorsements', (t) => {
    t.text('subject_kid').notNullable();
    t.text('endorser_kid').notNullable();
    /** base64url Ed25519 by the endorser over `endorsementMessage(subject jwk)`. */
    t.text('signature').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['subject_kid', 'endorser_kid']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signing_key_endorsements');
}

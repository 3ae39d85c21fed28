import type { Knex } from 'knex';

/**
 * The OIDC tokens CI runs have presented, by issuer and `jti`, kept until the token expires: a
 * token proves one run once, whichever replica it reaches. The tenant and externalId of the use
 * tell a client's retry of the same request from a replay.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_token_uses', (t) => {
    t.text('issuer').notNullable();
    t.text('jti').notNullable();
    t.text('tenant').notNullable();
    t.text('external_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.timestamp('used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['issuer', 'jti']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oidc_token_uses');
}

import type { Knex } from 'knex';

/**
 * `(tenant, external_id)` is unique only where `external_id` is set. It is set on CI receipts
 * that name their run; a receipt without one (every RON receipt) no longer adds a NULL key to the
 * index, one index entry less for each. Issuance names the index's condition in its ON CONFLICT
 * (src/storage/receipts.ts), and lookups by external id (always with a value) use it as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table receipts drop constraint receipts_tenant_external_id');
  await knex.raw(`create unique index receipts_tenant_external_id on receipts (tenant, external_id)
    where external_id is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index receipts_tenant_external_id');
  await knex.raw(`alter table receipts add constraint receipts_tenant_external_id
    unique (tenant, external_id)`);
}

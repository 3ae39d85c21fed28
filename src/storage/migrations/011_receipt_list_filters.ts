import type { Knex } from 'knex';

/**
 * GET /receipts filters: by decision (also what status narrows on), by the RON subject's
 * bundleId or docHash, each within a tenant and in list order; externalId already has the
 * (tenant, external_id) unique index, created-time ranges the (tenant, created_at, id) one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index receipts_tenant_decision on receipts
    (tenant, (body->>'decision'), created_at desc, id desc)`);
  await knex.raw(`create index receipts_tenant_bundle on receipts
    (tenant, (body->'subject'->>'bundleId'), created_at desc, id desc)`);
  await knex.raw(`create index receipts_tenant_doc_hash on receipts
    (tenant, (body->'subject'->>'docHash'), created_at desc, id desc)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index receipts_tenant_doc_hash');
  await knex.raw('drop index receipts_tenant_bundle');
  await knex.raw('drop index receipts_tenant_decision');
}

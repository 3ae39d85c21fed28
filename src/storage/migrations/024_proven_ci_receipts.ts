import type { Knex } from 'knex';

/**
 * The deployment gate's lookup: the CI receipts of a repository's commit that prove their run
 * (`ciProofOf` in src/receipts/ci-proof.ts: a passing `ci.identity`, by an OIDC token or the
 * GitHub App). The index holds only those, so receipts that prove nothing (anyone's, about any
 * repository, in any number) are never read by the lookup and never count against its limit.
 * It is an expression index over the signed body: computed by the database at insert time for
 * every writer (older replicas included) and built over the existing rows by this migration,
 * so nothing is backfilled. The index of migration 022 (every CI receipt by commit) served the
 * lookup that read them all, and goes.
 */

/** The index's condition; a query repeats it word for word (alias `r`) to be served by it. */
export const PROVEN_CI_RECEIPT = `r.body->'subject'->>'kind' = 'ci-workflow-run'
  and r.body->'checks' @> '[{"checkId":"ci.identity","status":"PASS"}]'::jsonb
  and r.body->'subject'->'identity'->>'source' in ('oidc', 'github-app')`;

export async function up(knex: Knex): Promise<void> {
  const condition = PROVEN_CI_RECEIPT.replaceAll('r.body', 'body');
  await knex.raw(`create index receipts_proven_ci on receipts
    ((lower(body->'subject'->>'repository')), (body->'subject'->>'headSha'), created_at desc, id desc)
    where ${condition}`);
  await knex.raw('drop index if exists receipts_ci_head_sha');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `create index receipts_ci_head_sha on receipts ((body->'subject'->>'headSha')) where body->'subject'->>'kind' = 'ci-workflow-run'`,
  );
  await knex.raw('drop index receipts_proven_ci');
}

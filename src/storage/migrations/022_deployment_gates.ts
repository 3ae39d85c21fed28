import type { Knex } from 'knex';

/**
 * Deployments the GitHub App gates (`deployment_protection_rule`), one row per workflow run's
 * callback, environment and deployment (a re-run job is a new deployment): a redelivered webhook
 * finds its row instead of deciding twice. A
 * pending row waits for its receipt and is decided by whichever replica holds its lease
 * (`lease_until`, taken with a conditional update); a decided row keeps the decision record.
 * The CI receipts of a commit, which every sweep of a pending deployment reads, get an index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deployment_gates', (t) => {
    t.uuid('id').primary();
    t.text('tenant').notNullable();
    t.bigInteger('installation_id').notNullable();
    t.text('repository').notNullable();
    t.text('environment').notNullable();
    t.text('sha').notNullable();
    t.text('callback_url').notNullable();
    t.bigInteger('deployment_id').notNullable();
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.jsonb('policy');
    t.text('policy_hash');
    t.text('state').notNullable().defaultTo('pending');
    t.timestamp('lease_until', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('decided_at', { useTz: true });
    t.text('reason');
    t.jsonb('record');
    t.unique(['callback_url', 'environment', 'deployment_id']);
    t.index(['state', 'lease_until']);
    t.index(['repository', 'requested_at']);
  });
  await knex.raw(
    `create index receipts_ci_head_sha on receipts ((body->'subject'->>'headSha')) where body->'subject'->>'kind' = 'ci-workflow-run'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists receipts_ci_head_sha');
  await knex.schema.dropTable('deployment_gates');
}

import type { Knex } from 'knex';

/**
 * Webhooks for relying parties (docs/webhooks.md). A tenant's subscriptions; an outbox of events,
 * each written in the transaction of the state change it reports (issuance, seal, revocation,
 * deployment decision) and only when a subscription of that tenant wants its type; and one
 * delivery per event and subscription, leased by whichever replica sends it (`lease_until`,
 * taken with a conditional update, as deployment gates are). An event's `data` holds what its
 * transaction knew; `body` is the JSON first sent, kept so every attempt sends the same bytes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.uuid('id').primary();
    t.text('tenant').notNullable();
    t.text('url').notNullable();
    t.specificType('event_types', 'text[]').notNullable();
    t.specificType('schemes', 'text[]').notNullable();
    // the v1 HMAC secret (whsec_...): the service must hold it to sign
    t.text('secret');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('disabled_at', { useTz: true });
    t.text('disabled_reason');
    t.index(['tenant', 'created_at']);
  });
  await knex.schema.createTable('webhook_events', (t) => {
    t.uuid('id').primary();
    t.text('tenant').notNullable();
    t.text('type').notNullable();
    t.text('subject').notNullable();
    t.jsonb('data').notNullable();
    // the exact body first sent (text, not jsonb: the bytes signed must not be re-serialised)
    t.text('body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('event_id').notNullable().references('webhook_events.id').onDelete('CASCADE');
    t.uuid('subscription_id')
      .notNullable()
      .references('webhook_subscriptions.id')
      .onDelete('CASCADE');
    t.text('state').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('lease_until', { useTz: true });
    // who holds the lease: only the holder records the attempt's outcome
    t.uuid('lease_owner');
    t.integer('last_status');
    t.text('last_error');
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['event_id', 'subscription_id']);
    t.index(['subscription_id', 'created_at']);
  });
  await knex.raw(
    `create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_events');
  await knex.schema.dropTable('webhook_subscriptions');
}

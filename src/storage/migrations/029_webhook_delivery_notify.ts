import type { Knex } from 'knex';

/**
 * The webhook dispatcher sleeps while nothing is pending (src/webhooks/dispatch-loop.ts): a
 * delivery that becomes pending or is given a new time (recorded with its event, tried again
 * later, redelivered) notifies `<schema>.webhook_deliveries` on the change feed's channel, so
 * every replica's dispatcher wakes once per transaction (PostgreSQL delivers one payload once).
 * Claiming a delivery sets only its lease and notifies nothing. The leased-deliveries index
 * serves the question of when the next lease ends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function webhook_deliveries_notify() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('receipts_changes', tg_table_schema || '.webhook_deliveries');
      return null;
    end $$`);
  await knex.raw(`create trigger webhook_deliveries_notify
    after insert or update of next_attempt_at, state on webhook_deliveries
    for each row when (new.state = 'pending')
    execute function webhook_deliveries_notify()`);
  await knex.raw(`create index webhook_deliveries_leased on webhook_deliveries (lease_until)
    where state = 'pending' and lease_until is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index webhook_deliveries_leased');
  await knex.raw('drop trigger webhook_deliveries_notify on webhook_deliveries');
  await knex.raw('drop function webhook_deliveries_notify()');
}

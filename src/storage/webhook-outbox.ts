import type { Knex } from 'knex';
import type { AnyEventType } from '../webhooks/events.js';

/**
 * The webhooks' outbox (migration 025), written inside the transaction (or the single statement)
 * of the change an event reports: an event row, and one pending delivery per active subscription
 * of its tenant that wants its type; nothing at all when no subscription wants it. A crash
 * before the commit leaves neither the change nor its event; after it, both.
 */

/** The subscriptions of `<tenant>` that want `<type>` (SQL expressions given as arguments). */
export function wantedBy(tenant: string, type: string): string {
  return `webhook_subscriptions s where s.tenant = ${tenant} and s.disabled_at is null
    and ${type} = any(s.event_types)`;
}

/**
 * CTEs that record one event per row of `source` (a CTE name with columns tenant, subject, data),
 * to append after a statement's own CTEs: `ev` (the events), `evd` (their deliveries).
 */
export function outboxCtes(source: string, type: AnyEventType): string {
  const t = `'${type}'`;
  return `ev as (
      insert into webhook_events (id, tenant, type, subject, data)
      select gen_random_uuid(), src.tenant, ${t}, src.subject, src.data from ${source} src
      where exists (select 1 from ${wantedBy('src.tenant', t)})
      returning id, tenant
    ), evd as (
      insert into webhook_deliveries (event_id, subscription_id, next_attempt_at)
      select ev.id, s.id, now() from ev, ${wantedBy('ev.tenant', t)}
    )`;
}

/** Records one event (tenant, subject, data) in the outbox, inside the caller's transaction. */
export async function recordEvent(
  db: Knex | Knex.Transaction,
  type: AnyEventType,
  event: { tenant: string; subject: string; data: Record<string, unknown> },
): Promise<void> {
  await db.raw(
    `with one as (select ?::text as tenant, ?::text as subject, ?::jsonb as data),
      ${outboxCtes('one', type)}
    select 1`,
    [event.tenant, event.subject, JSON.stringify(event.data)],
  );
}

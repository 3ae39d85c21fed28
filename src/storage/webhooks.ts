import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryPage,
  InFlightCaps,
  NewSubscription,
  Subscription,
  WebhookStore,
} from '../webhooks/ports.js';
import { affectedRows } from './affected.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import {
  DELIVERY_COLUMNS,
  toClaim,
  toDelivery,
  toSubscription,
  type ClaimRow,
  type DeliveryRow,
  type SubscriptionRow,
} from './webhook-rows.js';

/** The first key of the advisory lock a tenant's subscriptions are counted under. */
const TENANT_LOCK = 0x77686b73; // 'whks'

/**
 * The attempts open at `:now` (pending deliveries under an unexpired lease, of every replica),
 * counted per subscription and per tenant: what the in-flight caps are checked against.
 */
const BUSY_CTES = `busy as materialized (
    select d.subscription_id, s.tenant
    from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
    where d.state = 'pending' and d.lease_until >= :now
  ), busy_subscriptions as (
    select subscription_id, count(*) as n from busy group by subscription_id
  ), busy_tenants as (
    select tenant, count(*) as n from busy group by tenant
  )`;

/** What a uuid column accepts; any other id names nothing. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Webhook subscriptions and deliveries (migration 025). A delivery is leased by an update of rows
 * locked with `for update skip locked` (PostgreSQL re-checks a locked row's conditions on its
 * newest version), as deployment gates are, so of several replicas exactly one sends each
 * attempt; only the lease's owner records its outcome. The locking select is a materialized CTE:
 * as an `in (...)` subquery the planner may run it again and lease past its limit. A claim ranks
 * the due deliveries within their subscription and their tenant, after the attempts already
 * open there, so no subscription or tenant passes its in-flight cap; two replicas claiming at
 * the same instant each count only the leases committed before, so a cap may be passed by the
 * other's claim until those attempts end.
 */
export class WebhookRepository implements WebhookStore {
  constructor(private readonly knex: Knex) {}

  async createSubscription(s: NewSubscription, limit: number): Promise<Subscription | undefined> {
    return this.knex.transaction(async (trx) => {
      // one lock per tenant: two requests at once cannot both see room for one more
      await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [TENANT_LOCK, s.tenant]);
      const count = (await trx('webhook_subscriptions')
        .where({ tenant: s.tenant })
        .count({ n: '*' })
        .first()) as { n: string | number } | undefined;
      if (Number(count?.n ?? 0) >= limit) return undefined;
      const [row] = (await trx('webhook_subscriptions')
        .insert({
          id: s.id,
          tenant: s.tenant,
          url: s.url,
          event_types: s.eventTypes,
          schemes: s.schemes,
          secret: s.secret,
        })
        .returning('*')) as SubscriptionRow[];
      return toSubscription(row!);
    });
  }

  async listSubscriptions(tenant: string): Promise<Subscription[]> {
    const rows = (await this.knex('webhook_subscriptions')
      .where({ tenant })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as SubscriptionRow[];
    return rows.map(toSubscription);
  }

  async findSubscription(tenant: string, id: string): Promise<Subscription | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = (await this.knex('webhook_subscriptions').where({ tenant, id }).first()) as
      SubscriptionRow | undefined;
    return row ? toSubscription(row) : undefined;
  }

  async deleteSubscription(tenant: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    return (
      affectedRows(await this.knex('webhook_subscriptions').where({ tenant, id }).delete()) > 0
    );
  }

  async recordTestEvent(
    subscription: Subscription,
    data: Record<string, unknown>,
  ): Promise<string> {
    const id = randomUUID();
    await this.knex.transaction(async (trx) => {
      await trx('webhook_events').insert({
        id,
        tenant: subscription.tenant,
        type: 'webhook.test',
        subject: subscription.id,
        data: JSON.stringify(data),
      });
      await trx('webhook_deliveries').insert({
        event_id: id,
        subscription_id: subscription.id,
        next_attempt_at: trx.fn.now(),
      });
    });
    return id;
  }

  async claimDue(
    now: Date,
    leaseUntil: Date,
    limit: number,
    caps: InFlightCaps,
  ): Promise<ClaimedDelivery[]> {
    const result = (await this.knex.raw(
      `with ${BUSY_CTES}, due as (
         select d.id, d.next_attempt_at, s.tenant,
           row_number() over (partition by d.subscription_id order by d.next_attempt_at, d.id)
             + coalesce(bs.n, 0) as subscription_nth
         from webhook_deliveries d
           join webhook_subscriptions s on s.id = d.subscription_id
           left join busy_subscriptions bs on bs.subscription_id = d.subscription_id
         where d.state = 'pending' and d.next_attempt_at <= :now
           and (d.lease_until is null or d.lease_until < :now)
       ), eligible as (
         select due.id, due.next_attempt_at,
           row_number() over (partition by due.tenant order by due.next_attempt_at, due.id)
             + coalesce(bt.n, 0) as tenant_nth
         from due left join busy_tenants bt on bt.tenant = due.tenant
         where due.subscription_nth <= :perSubscription
       ), picked as materialized (
         select d.id from webhook_deliveries d
           join (select id from eligible where tenant_nth <= :perTenant
                 order by tenant_nth, next_attempt_at, id limit :limit) e on e.id = d.id
         where d.state = 'pending' and (d.lease_until is null or d.lease_until < :now)
         for update of d skip locked
       ), claimed as (
         update webhook_deliveries set lease_until = :leaseUntil, lease_owner = :owner
         from picked where webhook_deliveries.id = picked.id
         returning webhook_deliveries.*
       )
       select d.*, e.type as event_type, e.tenant as e_tenant, e.subject as e_subject,
         e.data as e_data, e.body as e_body, e.created_at as e_created_at,
         s.id as s_id, s.tenant as s_tenant, s.url as s_url, s.event_types as s_event_types,
         s.schemes as s_schemes, s.secret as s_secret, s.created_at as s_created_at,
         s.disabled_at as s_disabled_at, s.disabled_reason as s_disabled_reason
       from claimed d join webhook_events e on e.id = d.event_id
         join webhook_subscriptions s on s.id = d.subscription_id`,
      { now, leaseUntil, limit, owner: randomUUID(), ...caps },
    )) as { rows: ClaimRow[] };
    return result.rows.map(toClaim);
  }

  async nextDue(now: Date, caps: InFlightCaps): Promise<Date | null> {
    // free: the due index walked in order to the first delivery under its caps; leased (few:
    // those in flight, those of a replica that died): when the lease ends
    const result = (await this.knex.raw(
      `with ${BUSY_CTES}
       select least(
         (select d.next_attempt_at from webhook_deliveries d
            join webhook_subscriptions s on s.id = d.subscription_id
            left join busy_subscriptions bs on bs.subscription_id = d.subscription_id
            left join busy_tenants bt on bt.tenant = s.tenant
          where d.state = 'pending' and (d.lease_until is null or d.lease_until < :now)
            and coalesce(bs.n, 0) < :perSubscription and coalesce(bt.n, 0) < :perTenant
          order by d.next_attempt_at limit 1),
         (select min(greatest(next_attempt_at, lease_until)) from webhook_deliveries
           where state = 'pending' and lease_until >= :now)
       ) as at`,
      { now, ...caps },
    )) as { rows: { at: Date | string | null }[] };
    const at = result.rows[0]?.at;
    return at === null || at === undefined ? null : new Date(at);
  }

  async keepBody(eventId: string, body: string): Promise<string> {
    await this.knex('webhook_events').where({ id: eventId }).whereNull('body').update({ body });
    const row = (await this.knex('webhook_events').where({ id: eventId }).first('body')) as
      { body: string } | undefined;
    return row?.body ?? body;
  }

  async recordAttempt(claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      // a 410 fails every pending delivery of the subscription: take the subscription's lock
      // before any delivery's, so two of its attempts answered 410 at once never deadlock
      if (attempt.outcome === 'gone')
        await trx('webhook_subscriptions')
          .where({ id: claim.subscription.id })
          .forUpdate()
          .first('id');
      const updated = await trx('webhook_deliveries')
        .where({ id: claim.delivery.id, state: 'pending', lease_owner: claim.leaseOwner })
        .update({
          state: { delivered: 'delivered', retry: 'pending', failed: 'failed', gone: 'failed' }[
            attempt.outcome
          ],
          attempts: trx.raw('attempts + 1'),
          last_attempt_at: attempt.at,
          last_status: attempt.status,
          last_error: attempt.error,
          next_attempt_at: attempt.nextAttemptAt,
          delivered_at: attempt.outcome === 'delivered' ? attempt.at : null,
          lease_until: null,
          lease_owner: null,
        });
      if (updated === 0) return false;
      if (attempt.outcome === 'gone') await this.disable(trx, claim.subscription.id, attempt);
      return true;
    });
  }

  /** A receiver that answered 410 Gone: its subscription stops, its pending deliveries fail. */
  private async disable(trx: Knex.Transaction, subscriptionId: string, attempt: AttemptRecord) {
    const reason = 'the receiver answered 410 Gone';
    await trx('webhook_subscriptions')
      .where({ id: subscriptionId })
      .whereNull('disabled_at')
      .update({ disabled_at: attempt.at, disabled_reason: reason });
    await trx('webhook_deliveries')
      .where({ subscription_id: subscriptionId, state: 'pending' })
      .update({ state: 'failed', last_error: reason, next_attempt_at: null, lease_until: null });
  }

  async listDeliveries(
    subscriptionId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<DeliveryPage> {
    const after = decodeCursor(cursor);
    const query = this.knex('webhook_deliveries as d')
      .join('webhook_events as e', 'e.id', 'd.event_id')
      .select(this.knex.raw(DELIVERY_COLUMNS))
      .where('d.subscription_id', subscriptionId)
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(limit + 1);
    if (after) query.whereRaw('(d.created_at, d.id) < (?::timestamptz, ?::uuid)', after);
    const rows = ((await query) as DeliveryRow[]).map(toDelivery);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page,
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : undefined,
    };
  }

  async redeliver(subscriptionId: string, deliveryId: string, now: Date): Promise<boolean> {
    if (!UUID.test(deliveryId)) return false;
    const updated = await this.knex('webhook_deliveries')
      .where({ id: deliveryId, subscription_id: subscriptionId })
      .whereNotExists(
        this.knex('webhook_subscriptions')
          .select(this.knex.raw('1'))
          .where({ id: subscriptionId })
          .whereNotNull('disabled_at'),
      )
      .update({
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_until: null,
        lease_owner: null,
      });
    return updated > 0;
  }

  async pendingStats(): Promise<{ pending: number; oldest: Date | null }> {
    const row = (await this.knex('webhook_deliveries')
      .where({ state: 'pending' })
      .first(this.knex.raw('count(*) as n'), this.knex.raw('min(created_at) as oldest'))) as
      { n: string | number; oldest: Date | null } | undefined;
    return { pending: Number(row?.n ?? 0), oldest: row?.oldest ?? null };
  }
}

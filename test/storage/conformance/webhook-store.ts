import { randomUUID } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import type { EventType } from '../../../src/webhooks/events.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  InFlightCaps,
  Subscription,
} from '../../../src/webhooks/ports.js';
import type { Contract } from './harness.js';
import { unique } from './harness.js';
import { newReceipt } from './receipt-fixtures.js';

/** Caps no test below reaches, where caps are not the subject. */
const WIDE: InFlightCaps = { perSubscription: 1_000, perTenant: 1_000 };
const SECOND = 1_000;

/** A time of the test's own, a day ahead: nothing recorded by the store's clock is due before. */
const base = () => new Date(Math.floor(Date.now() / SECOND) * SECOND + 86_400_000);
const at = (t: Date, ms: number) => new Date(t.getTime() + ms);

const attempt = (
  outcome: AttemptRecord['outcome'],
  when: Date,
  nextAttemptAt: Date | null = null,
): AttemptRecord => ({
  at: when,
  outcome,
  status: outcome === 'delivered' ? 200 : outcome === 'gone' ? 410 : 500,
  error: outcome === 'delivered' ? null : 'answered',
  nextAttemptAt,
});

const ids = (claims: ClaimedDelivery[]) => claims.map((c) => c.delivery.id).sort();

/**
 * WebhookStore (src/webhooks/ports.ts): what the subscriptions' use cases and the dispatcher
 * rely on. Leases and the time of the next delivery are global (a claim takes any tenant's due
 * deliveries), so, like the log's, this contract runs in a file of its own, and each test removes
 * the subscriptions it made, and so their deliveries, when it ends. Times are the test's own (a
 * day ahead), set on each delivery by a redelivery, so nothing depends on the clock's pace.
 */
export const webhookStoreContract: Contract = (stores) => {
  const made: Subscription[] = [];
  afterEach(async () => {
    for (const s of made.splice(0)) await stores().webhooks.deleteSubscription(s.tenant, s.id);
  });

  async function subscribe(
    tenant = unique('tenant'),
    eventTypes: EventType[] = ['receipt.issued'],
    limit = 20,
  ): Promise<Subscription | undefined> {
    const s = await stores().webhooks.createSubscription(
      {
        id: randomUUID(),
        tenant,
        url: 'https://receiver.example/hooks',
        eventTypes,
        schemes: ['v1a'],
        secret: null,
      },
      limit,
    );
    if (s) made.push(s);
    return s;
  }

  /** Test deliveries to `s`, one due at each of `times`; their ids in that order. */
  async function dueAt(s: Subscription, times: Date[]): Promise<string[]> {
    const events: string[] = [];
    for (const [n] of times.entries())
      events.push(await stores().webhooks.recordTestEvent(s, { n }));
    const { items } = await stores().webhooks.listDeliveries(s.id, 100, undefined);
    const byEvent = new Map(items.map((d) => [d.eventId, d.id]));
    const deliveries = events.map((e) => byEvent.get(e)!);
    for (const [i, d] of deliveries.entries())
      expect(await stores().webhooks.redeliver(s.id, d, times[i]!)).toBe(true);
    return deliveries;
  }

  const claim = (now: Date, leaseMs: number, limit: number, caps = WIDE) =>
    stores().webhooks.claimDue(now, at(now, leaseMs), limit, caps);

  async function deliveryOf(s: Subscription, id: string) {
    const { items } = await stores().webhooks.listDeliveries(s.id, 100, undefined);
    return items.find((d) => d.id === id);
  }

  it("keeps each tenant's subscriptions to that tenant", async () => {
    const tenant = unique('tenant');
    const other = unique('other');
    const s = (await subscribe(tenant))!;
    expect(await stores().webhooks.findSubscription(tenant, s.id)).toEqual(s);
    expect(await stores().webhooks.findSubscription(other, s.id)).toBeUndefined();
    expect(await stores().webhooks.findSubscription(tenant, 'not-a-uuid')).toBeUndefined();
    expect((await stores().webhooks.listSubscriptions(other)).map((x) => x.id)).toEqual([]);
    expect(await stores().webhooks.deleteSubscription(other, s.id)).toBe(false);
    expect(await stores().webhooks.deleteSubscription(tenant, 'not-a-uuid')).toBe(false);
    expect((await stores().webhooks.listSubscriptions(tenant)).map((x) => x.id)).toEqual([s.id]);
    expect(await stores().webhooks.deleteSubscription(tenant, s.id)).toBe(true);
    expect(await stores().webhooks.findSubscription(tenant, s.id)).toBeUndefined();
    expect(await stores().webhooks.deleteSubscription(tenant, s.id)).toBe(false);
  });

  it('holds a tenant to its bound of subscriptions, even asked at once, and no other tenant', async () => {
    const tenant = unique('tenant');
    const created = await Promise.all(
      Array.from({ length: 8 }, () => subscribe(tenant, undefined, 3)),
    );
    expect(created.filter(Boolean)).toHaveLength(3);
    expect(await stores().webhooks.listSubscriptions(tenant)).toHaveLength(3);
    expect(await subscribe(tenant, undefined, 3)).toBeUndefined();
    expect(await subscribe(unique('other'), undefined, 3)).toBeDefined();
    const first = created.find(Boolean)!;
    await stores().webhooks.deleteSubscription(tenant, first.id);
    expect(await subscribe(tenant, undefined, 3)).toBeDefined();
  });

  it("delivers an event to its tenant's subscriptions that want it, and to no other", async () => {
    const tenant = unique('tenant');
    const wants = (await subscribe(tenant, ['receipt.issued']))!;
    const notThatType = (await subscribe(tenant, ['receipt.revoked']))!;
    const otherTenant = (await subscribe(unique('other'), ['receipt.issued']))!;
    const receipt = newReceipt(tenant);
    await stores().receipts.insert(receipt);
    const [delivery] = (await stores().webhooks.listDeliveries(wants.id, 10, undefined)).items;
    expect(delivery).toMatchObject({ eventType: 'receipt.issued', state: 'pending', attempts: 0 });
    for (const s of [notThatType, otherTenant])
      expect((await stores().webhooks.listDeliveries(s.id, 10, undefined)).items).toEqual([]);
    // another subscription's id names none of this one's deliveries
    expect(await stores().webhooks.redeliver(otherTenant.id, delivery!.id, base())).toBe(false);
    const [claimed] = await claim(at(new Date(), 60 * SECOND), 30 * SECOND, 10);
    expect(claimed?.delivery.id).toBe(delivery!.id);
    expect(claimed?.event).toMatchObject({
      tenant,
      type: 'receipt.issued',
      subject: receipt.receipt.receiptId,
    });
    expect(claimed?.subscription.id).toBe(wants.id);
    // removed with its subscription
    await stores().webhooks.deleteSubscription(tenant, wants.id);
    expect((await stores().webhooks.listDeliveries(wants.id, 10, undefined)).items).toEqual([]);
  });

  it('keeps the body first kept for an event', async () => {
    const s = (await subscribe())!;
    const event = await stores().webhooks.recordTestEvent(s, {});
    expect(await stores().webhooks.keepBody(event, '{"first":1}')).toBe('{"first":1}');
    expect(await stores().webhooks.keepBody(event, '{"second":2}')).toBe('{"first":1}');
  });

  it('leases each due delivery, up to the limit, to one of concurrent claimers', async () => {
    const t = base();
    const all: string[] = [];
    for (let i = 0; i < 3; i++) all.push(...(await dueAt((await subscribe())!, Array(6).fill(t))));
    expect(await claim(at(t, -SECOND), 30 * SECOND, 100)).toEqual([]);
    const rounds = await Promise.all(Array.from({ length: 5 }, () => claim(t, 30 * SECOND, 4)));
    for (const r of rounds) expect(r.length).toBeLessThanOrEqual(4);
    const claimed = rounds.flat();
    for (const c of claimed) {
      expect(c.subscription.id).toBe(c.delivery.subscriptionId);
      expect(c.event.id).toBe(c.delivery.eventId);
    }
    const rest = await claim(t, 30 * SECOND, 100);
    expect(new Set(ids([...claimed, ...rest])).size).toBe(claimed.length + rest.length);
    expect(ids([...claimed, ...rest])).toEqual([...all].sort());
  });

  it('leaves a leased delivery until its lease ends; then only the new claim records it', async () => {
    const t = base();
    const s = (await subscribe())!;
    const [id] = await dueAt(s, [t]);
    const [first] = await claim(t, 10 * SECOND, 10);
    expect(first?.delivery.id).toBe(id);
    expect(await claim(at(t, 5 * SECOND), 10 * SECOND, 10)).toEqual([]);
    const [second] = await claim(at(t, 11 * SECOND), 10 * SECOND, 10);
    expect(second?.delivery.id).toBe(id);
    expect(second?.leaseOwner).not.toBe(first?.leaseOwner);
    expect(await stores().webhooks.recordAttempt(first!, attempt('delivered', t))).toBe(false);
    expect((await deliveryOf(s, id!))?.state).toBe('pending');
    expect(await stores().webhooks.recordAttempt(second!, attempt('delivered', t))).toBe(true);
    expect(await deliveryOf(s, id!)).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(await claim(at(t, 60 * SECOND), 10 * SECOND, 10)).toEqual([]);
  });

  it('frees the lease with a retry, the delivery due again at its next attempt', async () => {
    const t = base();
    const s = (await subscribe())!;
    const [id] = await dueAt(s, [t]);
    const [c] = await claim(t, 30 * SECOND, 10);
    const next = at(t, 60 * SECOND);
    expect(await stores().webhooks.recordAttempt(c!, attempt('retry', t, next))).toBe(true);
    expect(await deliveryOf(s, id!)).toMatchObject({
      state: 'pending',
      attempts: 1,
      nextAttemptAt: next,
    });
    expect(await claim(at(t, 59 * SECOND), 30 * SECOND, 10)).toEqual([]);
    expect(ids(await claim(next, 30 * SECOND, 10))).toEqual([id]);
  });

  it('fails the pending deliveries of a subscription whose receiver answered 410', async () => {
    const t = base();
    const tenant = unique('tenant');
    const s = (await subscribe(tenant))!;
    const [gone, other] = await dueAt(s, [t, at(t, 60 * SECOND)]);
    const [c] = await claim(t, 30 * SECOND, 1);
    expect(c?.delivery.id).toBe(gone);
    expect(await stores().webhooks.recordAttempt(c!, attempt('gone', t))).toBe(true);
    expect((await stores().webhooks.findSubscription(tenant, s.id))?.disabledAt).toEqual(t);
    expect((await deliveryOf(s, other!))?.state).toBe('failed');
    expect(await stores().webhooks.redeliver(s.id, other!, t)).toBe(false);
  });

  it('leaves a subscription with its cap of attempts open unclaimed; expired leases do not count', async () => {
    const t = base();
    const s = (await subscribe())!;
    await dueAt(s, Array(5).fill(t));
    const caps = { perSubscription: 2, perTenant: 1_000 };
    const first = await claim(t, 10 * SECOND, 10, caps);
    expect(first).toHaveLength(2);
    expect(await claim(at(t, SECOND), 10 * SECOND, 10, caps)).toEqual([]);
    expect(await stores().webhooks.recordAttempt(first[0]!, attempt('delivered', t))).toBe(true);
    expect(await claim(at(t, 2 * SECOND), 10 * SECOND, 10, caps)).toHaveLength(1);
    // every lease ended: the three left pending are claimable again, two at a time
    expect(await claim(at(t, 60 * SECOND), 10 * SECOND, 10, caps)).toHaveLength(2);
  });

  it('leaves a tenant with its cap of attempts open unclaimed, whatever the subscription, and no other tenant', async () => {
    const t = base();
    const tenant = unique('tenant');
    for (let i = 0; i < 3; i++) await dueAt((await subscribe(tenant))!, [t, t]);
    const other = (await subscribe())!;
    const caps = { perSubscription: 1_000, perTenant: 3 };
    const first = await claim(t, 10 * SECOND, 10, caps);
    expect(first.filter((c) => c.subscription.tenant === tenant)).toHaveLength(3);
    expect(await claim(t, 10 * SECOND, 10, caps)).toEqual([]);
    const [theirs] = await dueAt(other, [t]);
    expect(ids(await claim(t, 10 * SECOND, 10, caps))).toEqual([theirs]);
  });

  it('lets tenants take turns: a later delivery of another tenant goes before a backlog', async () => {
    const t = base();
    const busy = (await subscribe())!;
    await dueAt(
      busy,
      Array.from({ length: 6 }, (_, i) => at(t, i)),
    );
    const [quiet] = await dueAt((await subscribe())!, [at(t, 10 * SECOND)]);
    const claimed = await claim(at(t, 20 * SECOND), 10 * SECOND, 2);
    expect(claimed).toHaveLength(2);
    expect(ids(claimed)).toContain(quiet);
  });

  it('says when the next delivery may be claimed: a free one due, or a lease ending', async () => {
    const t = base();
    const nextDue = (now: Date, caps = WIDE) => stores().webhooks.nextDue(now, caps);
    expect(await nextDue(t)).toBeNull();
    const s = (await subscribe())!;
    const [later] = await dueAt(s, [at(t, 60 * SECOND)]);
    expect(await nextDue(t)).toEqual(at(t, 60 * SECOND));
    const [sooner] = await dueAt(s, [at(t, 30 * SECOND)]);
    expect(await nextDue(t)).toEqual(at(t, 30 * SECOND));
    const [a] = await claim(at(t, 30 * SECOND), 60 * SECOND, 10);
    expect(a?.delivery.id).toBe(sooner);
    // the free one's time comes before the lease's end
    expect(await nextDue(at(t, 31 * SECOND))).toEqual(at(t, 60 * SECOND));
    const [b] = await claim(at(t, 60 * SECOND), 60 * SECOND, 10);
    expect(b?.delivery.id).toBe(later);
    expect(await nextDue(at(t, 61 * SECOND))).toEqual(at(t, 90 * SECOND));
    for (const c of [a!, b!])
      expect(await stores().webhooks.recordAttempt(c, attempt('delivered', t))).toBe(true);
    expect(await nextDue(at(t, 61 * SECOND))).toBeNull();
  });

  it('counts a delivery held back by a cap due only when a lease that holds it ends', async () => {
    const t = base();
    const s = (await subscribe())!;
    await dueAt(s, [t, t]);
    const caps = { perSubscription: 1, perTenant: 1_000 };
    expect(await claim(t, 50 * SECOND, 10, caps)).toHaveLength(1);
    expect(await stores().webhooks.nextDue(at(t, SECOND), caps)).toEqual(at(t, 50 * SECOND));
    expect(await stores().webhooks.nextDue(at(t, SECOND), WIDE)).toEqual(t);
  });
};

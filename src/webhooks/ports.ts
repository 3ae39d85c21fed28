import type { AnyEventType, EventType, Scheme } from './events.js';

/**
 * What the webhooks need from a store, declared here and implemented by
 * `src/storage/webhooks.ts`. Events themselves are written by the stores of the changes they
 * report (the receipt, revocation, log and deployment-gate transactions), never through this port.
 */

export interface Subscription {
  id: string;
  tenant: string;
  url: string;
  eventTypes: EventType[];
  schemes: Scheme[];
  /** The v1 HMAC secret (`whsec_...`), when `v1` is among the schemes. */
  secret: string | null;
  createdAt: Date;
  /** Set when the receiver answered 410 Gone: nothing more is sent to it. */
  disabledAt: Date | null;
  disabledReason: string | null;
}

export type NewSubscription = Omit<Subscription, 'createdAt' | 'disabledAt' | 'disabledReason'>;

/** One event of the outbox: what its transaction knew (`data`), and the body once first sent. */
export interface StoredEvent {
  id: string;
  tenant: string;
  type: AnyEventType;
  /** The receipt id, or the gate id of a deployment decision, or the subscription id (test). */
  subject: string;
  data: Record<string, unknown>;
  /** The exact JSON first sent; every later attempt sends these bytes again. */
  body: string | null;
  createdAt: Date;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  eventId: string;
  eventType: AnyEventType;
  subscriptionId: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A delivery leased to one sender, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: Delivery;
  event: StoredEvent;
  subscription: Subscription;
  /** Who holds the lease: only this claim may record the attempt. */
  leaseOwner: string;
}

/** What one attempt came to. `gone`: the receiver answered 410, its subscription is disabled. */
export interface AttemptRecord {
  at: Date;
  outcome: 'delivered' | 'retry' | 'failed' | 'gone';
  status: number | null;
  error: string | null;
  /** When to try again (`retry` only). */
  nextAttemptAt: Date | null;
}

/**
 * How many attempts may be open at once for one subscription and for one tenant, counted over
 * every replica's unexpired leases, so a receiver that never answers holds only its own share of
 * the dispatchers' slots (docs/decisions/0090-attempts-are-independent-and-capped-per-receiver.md).
 */
export interface InFlightCaps {
  perSubscription: number;
  perTenant: number;
}

export interface DeliveryPage {
  items: Delivery[];
  nextCursor: string | undefined;
}

export interface WebhookStore {
  /**
   * Records the subscription unless its tenant already has `limit` (checked and written under
   * one lock per tenant, so concurrent requests cannot pass it); undefined when it has.
   */
  createSubscription(
    subscription: NewSubscription,
    limit: number,
  ): Promise<Subscription | undefined>;
  /** The tenant's subscriptions, oldest first. */
  listSubscriptions(tenant: string): Promise<Subscription[]>;
  /** The tenant's subscription, or undefined (another tenant's is indistinguishable from none). */
  findSubscription(tenant: string, id: string): Promise<Subscription | undefined>;
  /** Removes it and its deliveries; false when the tenant has none with that id. */
  deleteSubscription(tenant: string, id: string): Promise<boolean>;
  /** Records a test event and its delivery to this subscription alone; the event's id. */
  recordTestEvent(subscription: Subscription, data: Record<string, unknown>): Promise<string>;
  /**
   * Leases up to `limit` pending deliveries due at `now` whose lease is free (none, or ended
   * before `now`), until `leaseUntil` (a conditional update: of several replicas, exactly one
   * gets each). A delivery is left unclaimed while its subscription or its tenant already has
   * its cap of unexpired leases (those of this claim counted); among the rest the tenants take
   * turns (each tenant's earliest due first), then the earliest due.
   */
  claimDue(
    now: Date,
    leaseUntil: Date,
    limit: number,
    caps: InFlightCaps,
  ): Promise<ClaimedDelivery[]>;
  /**
   * When the next pending delivery may be claimed: the earliest next attempt of a delivery
   * whose lease is free and whose subscription and tenant are under their caps at `now`, and
   * the end of every unexpired lease (which frees a cap, or the delivery itself); null when no
   * delivery is pending.
   */
  nextDue(now: Date, caps: InFlightCaps): Promise<Date | null>;
  /** Keeps the event's body if it has none yet; returns the body kept (the first one written). */
  keepBody(eventId: string, body: string): Promise<string>;
  /** Records the attempt and frees the lease; false when the lease was no longer this claim's. */
  recordAttempt(claim: ClaimedDelivery, attempt: AttemptRecord): Promise<boolean>;
  /** The subscription's deliveries, newest first, keyset-paged. */
  listDeliveries(
    subscriptionId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<DeliveryPage>;
  /** Sends a delivery of the subscription again from `now` (same webhook-id); false if none. */
  redeliver(subscriptionId: string, deliveryId: string, now: Date): Promise<boolean>;
  /** Pending deliveries across all tenants, and the creation time of the oldest. */
  pendingStats(): Promise<{ pending: number; oldest: Date | null }>;
}

/**
 * News of deliveries that may have become due sooner than the dispatcher thought: one recorded,
 * redelivered or put off to a new time, by this process or another on the same store.
 */
export interface DeliveryNotices {
  /**
   * Calls `fn` after each such change commits, and whenever one may have gone unnoticed (the
   * listener reconnected); the returned function stops the calls.
   */
  subscribe(fn: () => void): () => void;
  /** False while a change may go unnoticed (the listener is down): the dispatcher then polls. */
  readonly live: boolean;
}

import type { AnyEventType, EventType, Scheme } from '../webhooks/events.js';
import type { ClaimedDelivery, Delivery, StoredEvent, Subscription } from '../webhooks/ports.js';

/** The rows of migration 025's tables as the webhook port's types (webhooks.ts reads them). */

export interface SubscriptionRow {
  id: string;
  tenant: string;
  url: string;
  event_types: string[];
  schemes: string[];
  secret: string | null;
  created_at: Date;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  subscription_id: string;
  state: Delivery['state'];
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    tenant: row.tenant,
    url: row.url,
    eventTypes: row.event_types as EventType[],
    schemes: row.schemes as Scheme[],
    secret: row.secret,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
  };
}

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type as AnyEventType,
    subscriptionId: row.subscription_id,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
  };
}

/** A claimed row: the delivery, its event and its subscription, prefixed (`e_`, `s_`). */
export type ClaimRow = DeliveryRow & {
  lease_owner: string;
  e_tenant: string;
  e_subject: string;
  e_data: Record<string, unknown>;
  e_body: string | null;
  e_created_at: Date;
} & { [K in keyof SubscriptionRow as `s_${K}`]: SubscriptionRow[K] };

export function toClaim(row: ClaimRow): ClaimedDelivery {
  const event: StoredEvent = {
    id: row.event_id,
    tenant: row.e_tenant,
    type: row.event_type as AnyEventType,
    subject: row.e_subject,
    data: row.e_data,
    body: row.e_body,
    createdAt: row.e_created_at,
  };
  const subscription = toSubscription({
    id: row.s_id,
    tenant: row.s_tenant,
    url: row.s_url,
    event_types: row.s_event_types,
    schemes: row.s_schemes,
    secret: row.s_secret,
    created_at: row.s_created_at,
    disabled_at: row.s_disabled_at,
    disabled_reason: row.s_disabled_reason,
  });
  return { delivery: toDelivery(row), event, subscription, leaseOwner: row.lease_owner };
}

export const DELIVERY_COLUMNS = `d.id, d.event_id, e.type as event_type, d.subscription_id, d.state,
  d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_status, d.last_error, d.delivered_at,
  d.created_at`;

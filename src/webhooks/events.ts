/**
 * The events a tenant can subscribe to (docs/webhooks.md). Each is recorded in the outbox in the
 * transaction of the change it reports, so none is lost and none reports what did not happen.
 */
export const EVENT_TYPES = [
  'receipt.issued',
  'receipt.anchored',
  'receipt.revoked',
  'deployment.decided',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent only on request (`POST /api/v1/webhooks/{id}/test`), to that subscription alone. */
export const TEST_EVENT_TYPE = 'webhook.test';
export type AnyEventType = EventType | typeof TEST_EVENT_TYPE;

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** The signature schemes of the Standard Webhooks specification a subscription may ask for. */
export const SCHEMES = ['v1', 'v1a'] as const;
export type Scheme = (typeof SCHEMES)[number];

/**
 * The body of every delivery, as the Standard Webhooks specification shapes it: the event's type,
 * when it happened (not when it was sent: `webhook-timestamp` says that), and its data.
 */
export interface EventEnvelope {
  type: AnyEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The specification's advice, and a promise of this service: no body is larger. */
export const MAX_BODY_BYTES = 20 * 1024;

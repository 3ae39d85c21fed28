/**
 * The events a tenant can subscribe to (docs/webhooks.md). Each is recorded in the outbox in the
 * transaction of the change it reports, so none is lost and none reports what did not happen.
 */
import { EVENT_TYPES, SCHEMES, TEST_EVENT_TYPE } from '../contract/webhook-names.js';

export { EVENT_TYPES, SCHEMES, TEST_EVENT_TYPE };
export type EventType = (typeof EVENT_TYPES)[number];

export type AnyEventType = EventType | typeof TEST_EVENT_TYPE;

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

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

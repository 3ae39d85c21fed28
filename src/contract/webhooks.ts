import { z } from 'zod';
import { EVENT_TYPES, SCHEMES, TEST_EVENT_TYPE } from './webhook-names.js';
import { DateTime, Decision, ExternalReceiptStatus, Sha256Digest } from './common.js';
import { DeploymentDecision } from './deployments.js';
import { BundleLogEntry } from './log-entry.js';
import { PublicStatusDocument } from './status.js';
import {
  DEPLOYMENT_DECIDED_EVENT_EXAMPLE,
  RECEIPT_ANCHORED_EVENT_EXAMPLE,
  RECEIPT_ISSUED_EVENT_EXAMPLE,
  RECEIPT_REVOKED_EVENT_EXAMPLE,
  WEBHOOK_TEST_EVENT_EXAMPLE,
} from './webhook-examples.js';

/** /api/v1/webhooks: subscriptions, deliveries, and the events' bodies (docs/webhooks.md). */

export const WebhookEventType = z.enum(EVENT_TYPES);
export const WebhookScheme = z.enum(SCHEMES);

const SUBSCRIPTION_ID = '3f0c6a52-9a41-4d3e-8b7c-1f2a9e6d5c40';

export const WebhookSubscriptionRequest = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .max(2048)
      .describe('https URL (http only to a loopback address the operator allows)'),
    eventTypes: z.array(WebhookEventType).min(1).max(EVENT_TYPES.length),
    schemes: z
      .array(WebhookScheme)
      .min(1)
      .max(SCHEMES.length)
      .optional()
      .describe(
        'v1: HMAC-SHA256 with a secret shown once; v1a: Ed25519 with the published key (default)',
      ),
  })
  .meta({
    id: 'WebhookSubscriptionRequest',
    example: {
      url: 'https://escrow.example.com/hooks/receipts',
      eventTypes: ['receipt.anchored', 'receipt.revoked'],
      schemes: ['v1', 'v1a'],
    },
  });

export const WEBHOOK_SUBSCRIPTION_EXAMPLE = {
  id: SUBSCRIPTION_ID,
  url: 'https://escrow.example.com/hooks/receipts',
  eventTypes: ['receipt.anchored', 'receipt.revoked'],
  schemes: ['v1', 'v1a'],
  createdAt: '2026-11-24T19:47:10.000Z',
  disabledAt: null,
  disabledReason: null,
};

export const WebhookSubscription = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    eventTypes: z.array(WebhookEventType),
    schemes: z.array(WebhookScheme),
    createdAt: DateTime,
    disabledAt: DateTime.nullable().describe('Set when the receiver answered 410 Gone'),
    disabledReason: z.string().nullable(),
  })
  .meta({ id: 'WebhookSubscription', example: WEBHOOK_SUBSCRIPTION_EXAMPLE });

export const CreatedWebhookSubscription = WebhookSubscription.extend({
  secret: z
    .string()
    .nullable()
    .describe('The v1 secret (whsec_...), shown only in this answer; null without v1'),
}).meta({
  id: 'CreatedWebhookSubscription',
  example: {
    ...WEBHOOK_SUBSCRIPTION_EXAMPLE,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6bLmRv+uUIA=',
  },
});

export const WEBHOOK_DELIVERY_EXAMPLE = {
  id: '8a1d2c3b-4e5f-4a6b-9c7d-0e1f2a3b4c5d',
  eventId: '0d9a6a2e-7f8b-4c1d-a2e3-f4a5b6c7d8e9',
  eventType: 'receipt.anchored',
  state: 'pending',
  attempts: 2,
  nextAttemptAt: '2026-11-24T20:22:15.000Z',
  lastAttemptAt: '2026-11-24T19:52:15.000Z',
  lastStatus: 503,
  lastError: 'answered 503 Service Unavailable',
  deliveredAt: null,
  createdAt: '2026-11-24T19:47:10.000Z',
};

export const WebhookDelivery = z
  .strictObject({
    id: z.uuid(),
    eventId: z.uuid().describe('The webhook-id header: the same on every attempt'),
    eventType: z.enum([...EVENT_TYPES, TEST_EVENT_TYPE]),
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: DateTime.nullable(),
    lastAttemptAt: DateTime.nullable(),
    lastStatus: z.number().int().nullable().describe('The HTTP status of the last answer'),
    lastError: z.string().nullable(),
    deliveredAt: DateTime.nullable(),
    createdAt: DateTime,
  })
  .meta({ id: 'WebhookDelivery', example: WEBHOOK_DELIVERY_EXAMPLE });

export const WebhookTestAnswer = z
  .strictObject({ eventId: z.uuid() })
  .meta({ id: 'WebhookTestAnswer', example: { eventId: '0d9a6a2e-7f8b-4c1d-a2e3-f4a5b6c7d8e9' } });

/* The events' bodies: `{ type, timestamp, data }`, minified JSON, never over 20 KB. */

const envelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({
    type: z.literal(type),
    timestamp: DateTime.describe('When the change happened (not when it was sent)'),
    data,
  });

export const ReceiptIssuedEvent = envelope(
  'receipt.issued',
  z.strictObject({
    receiptId: z.uuid(),
    receiptHash: Sha256Digest,
    kind: z.enum(['ron-document', 'ci-workflow-run']),
    decision: Decision,
    status: ExternalReceiptStatus,
    reasons: z.array(z.string()),
    createdAt: DateTime,
    links: z.strictObject({ receipt: z.string(), pdf: z.string() }),
  }),
);

export const ReceiptAnchoredEvent = envelope(
  'receipt.anchored',
  z.strictObject({
    receiptId: z.uuid(),
    receiptHash: Sha256Digest,
    logEntry: BundleLogEntry.describe(
      "The bundle's logEntry: inclusion proof and signed checkpoint, verifiable offline",
    ),
  }),
);

export const ReceiptRevokedEvent = envelope(
  'receipt.revoked',
  z.strictObject({
    receiptId: z.uuid(),
    receiptHash: Sha256Digest,
    revokedAt: DateTime,
    revokedBy: z
      .string()
      .optional()
      .describe('The revoker (its x-issuer-id) that signed the revocation'),
    status: PublicStatusDocument.describe('The signed status, as GET /status/{receiptHash}'),
  }),
);

export const DeploymentDecidedEvent = envelope(
  'deployment.decided',
  z.strictObject({
    gateId: z.uuid(),
    repository: z.string(),
    environment: z.string(),
    sha: z.string(),
    state: z.enum(['approved', 'rejected']),
    reason: z.string(),
    decidedAt: DateTime,
    record: DeploymentDecision.shape.record,
  }),
);

export const WebhookTestEvent = envelope(
  TEST_EVENT_TYPE,
  z.strictObject({ subscriptionId: z.uuid(), message: z.string() }),
);

/** Each event's schema and example, by component name. */
export const WEBHOOK_EVENT_SCHEMAS = {
  ReceiptIssuedEvent: [ReceiptIssuedEvent, RECEIPT_ISSUED_EVENT_EXAMPLE],
  ReceiptAnchoredEvent: [ReceiptAnchoredEvent, RECEIPT_ANCHORED_EVENT_EXAMPLE],
  ReceiptRevokedEvent: [ReceiptRevokedEvent, RECEIPT_REVOKED_EVENT_EXAMPLE],
  DeploymentDecidedEvent: [DeploymentDecidedEvent, DEPLOYMENT_DECIDED_EVENT_EXAMPLE],
  WebhookTestEvent: [WebhookTestEvent, WEBHOOK_TEST_EVENT_EXAMPLE],
} as const;

/**
 * The events' JSON Schemas (OpenAPI 3.0 form, every part inlined: an empty registry names no
 * shared component), with their examples, for the OpenAPI document's components.
 */
export function webhookEventComponents(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_SCHEMAS).map(([name, [schema, example]]) => [
      name,
      {
        ...z.toJSONSchema(schema, {
          target: 'openapi-3.0',
          unrepresentable: 'any',
          metadata: z.registry(),
        }),
        title: (example as { type: string }).type,
        example,
      },
    ]),
  );
}

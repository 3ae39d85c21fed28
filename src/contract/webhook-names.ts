/** The webhooks' fixed names: event types and signature schemes (docs/webhooks.md). */
export const EVENT_TYPES = [
  'receipt.issued',
  'receipt.anchored',
  'receipt.revoked',
  'deployment.decided',
] as const;

/** Sent only on request (`POST /api/v1/webhooks/{id}/test`), to that subscription alone. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The signature schemes of the Standard Webhooks specification a subscription may ask for. */
export const SCHEMES = ['v1', 'v1a'] as const;

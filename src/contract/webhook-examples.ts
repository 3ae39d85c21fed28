import { RECEIPT_BUNDLE_EXAMPLE } from './bundle-example.js';
import { DEPLOYMENT_DECISION_EXAMPLE } from './deployments.js';

/** Example bodies of the webhook events (OpenAPI components, docs/webhooks.md). */

const RECEIPT_ID = '2f1c7e4a-9b3d-4c58-8e21-6a0f5d9b7c13';
const RECEIPT_HASH = 'sha256:0257db9ae04ccd47c7f1a4d98e19d73d708fdf8de80044861f0786758d389f9c';

export const RECEIPT_ISSUED_EVENT_EXAMPLE = {
  type: 'receipt.issued',
  timestamp: '2026-01-15T10:30:00.000Z',
  data: {
    receiptId: RECEIPT_ID,
    receiptHash: RECEIPT_HASH,
    kind: 'ron-document',
    decision: 'ALLOW',
    status: 'clean',
    reasons: [],
    createdAt: '2026-01-15T10:30:00.000Z',
    links: {
      receipt: `https://receipts.example.com/api/v1/receipt/${RECEIPT_ID}`,
      pdf: `https://receipts.example.com/api/v1/receipt/${RECEIPT_ID}/pdf`,
    },
  },
} as const;

export const RECEIPT_ANCHORED_EVENT_EXAMPLE = {
  type: 'receipt.anchored',
  timestamp: '2026-01-15T10:31:00.000Z',
  data: {
    receiptId: RECEIPT_ID,
    receiptHash: RECEIPT_HASH,
    logEntry: RECEIPT_BUNDLE_EXAMPLE.logEntry,
  },
} as const;

const REVOKED_STATEMENT = {
  type: 'verification-receipt-status/v1',
  receiptHash: RECEIPT_HASH,
  status: 'revoked',
  revokedAt: '2026-02-01T09:00:00.000Z',
  revokedBy: 'escrow-co',
  anchor: { status: 'ANCHORED', logIndex: 0 },
  producedAt: '2026-02-01T09:00:02.120Z',
} as const;

export const RECEIPT_REVOKED_EVENT_EXAMPLE = {
  type: 'receipt.revoked',
  timestamp: '2026-02-01T09:00:00.000Z',
  data: {
    receiptId: RECEIPT_ID,
    receiptHash: RECEIPT_HASH,
    revokedAt: '2026-02-01T09:00:00.000Z',
    revokedBy: 'escrow-co',
    status: {
      mediaType: 'application/vnd.verification-receipt.status+json;version=1',
      statement: REVOKED_STATEMENT,
      canonicalStatement: '{"anchor":{"logIndex":0,"status":"ANCHORED"},...}',
      signature: {
        alg: 'EdDSA',
        kid: '4X-_1cWrd0DZn0IYmGMPTWaFWYxrp1uN4HiKF9D4aaM',
        signature: 'base64url Ed25519 signature over canonicalStatement',
      },
    },
  },
} as const;

const { record, ...decision } = DEPLOYMENT_DECISION_EXAMPLE;

export const DEPLOYMENT_DECIDED_EVENT_EXAMPLE = {
  type: 'deployment.decided',
  timestamp: decision.decidedAt,
  data: {
    gateId: decision.id,
    repository: decision.repository,
    environment: decision.environment,
    sha: decision.sha,
    state: decision.state,
    reason: decision.reason,
    decidedAt: decision.decidedAt,
    record,
  },
} as const;

export const WEBHOOK_TEST_EVENT_EXAMPLE = {
  type: 'webhook.test',
  timestamp: '2026-11-24T19:47:10.000Z',
  data: {
    subscriptionId: '3f0c6a52-9a41-4d3e-8b7c-1f2a9e6d5c40',
    message: 'a test event: this endpoint receives the events it subscribed to',
  },
} as const;

import { z } from 'zod';
import { DateTime } from './common.js';

/** GET /api/v1/deployments: the deployment gate's decisions (docs/github-app.md §8). */

export const DEPLOYMENT_DECISION_EXAMPLE = {
  id: '6f1c2d9e-3b7a-4f0e-9c51-2a8d7e4b1f30',
  repository: 'octo-org/octo-repo',
  environment: 'production',
  sha: '3484a3fb816e0859fd6e1cea078d76385ff50625',
  state: 'approved',
  reason: 'receipt 0b6c1c9e-8d51-4c55-9f6a-3f3f1f0b2f6e meets the policy',
  requestedAt: '2026-11-24T19:47:10.000Z',
  decidedAt: '2026-11-24T19:47:16.951Z',
  record: {
    statement: {
      type: 'verification-receipt-deployment-decision/v1',
      gateId: '6f1c2d9e-3b7a-4f0e-9c51-2a8d7e4b1f30',
      repository: 'octo-org/octo-repo',
      environment: 'production',
      sha: '3484a3fb816e0859fd6e1cea078d76385ff50625',
      state: 'approved',
      reason: 'receipt 0b6c1c9e-8d51-4c55-9f6a-3f3f1f0b2f6e meets the policy',
      policyHash: 'sha256:a85ceccf29c106246015c2e815adb21aa7de98fbe462159dd62fa7f5da96d8ab',
      receipts: [
        {
          receiptId: '0b6c1c9e-8d51-4c55-9f6a-3f3f1f0b2f6e',
          receiptHash: 'sha256:8013218c3234180b1b3ccec37e4fbbc999c6ae75606fe8dc1ad9b91ea9814c2e',
        },
      ],
      requestedAt: '2026-11-24T19:47:10.000Z',
      decidedAt: '2026-11-24T19:47:16.951Z',
    },
    canonicalStatement: '{"decidedAt":"2026-11-24T19:47:16.951Z",...}',
    signature: {
      alg: 'EdDSA',
      kid: 'tSkT3VYdR0s4Yvb3cZ0Ar8N3xKz8Qn0pbK0hQv2u6dI',
      signature: 'q3e5...base64url Ed25519 signature over canonicalStatement',
    },
  },
} as const;

export const DeploymentDecisionStatement = z
  .looseObject({
    type: z.literal('verification-receipt-deployment-decision/v1'),
    gateId: z.uuid(),
    repository: z.string(),
    environment: z.string(),
    sha: z.string(),
    state: z.enum(['approved', 'rejected']),
    reason: z.string(),
    policyHash: z.string().optional(),
    receipts: z.array(z.strictObject({ receiptId: z.string(), receiptHash: z.string() })),
    requestedAt: DateTime,
    decidedAt: DateTime,
  })
  .meta({ id: 'DeploymentDecisionStatement' });

export const DeploymentDecision = z
  .strictObject({
    id: z.uuid(),
    repository: z.string().describe('owner/repo'),
    environment: z.string(),
    sha: z.string(),
    state: z.enum(['approved', 'rejected']),
    reason: z.string(),
    requestedAt: DateTime,
    decidedAt: DateTime,
    record: z
      .strictObject({
        statement: DeploymentDecisionStatement,
        canonicalStatement: z.string().describe('RFC 8785 canonical JSON of `statement`'),
        signature: z
          .strictObject({ alg: z.literal('EdDSA'), kid: z.string(), signature: z.string() })
          .nullable()
          .describe('Ed25519 over canonicalStatement with the service key; null if unsigned'),
      })
      .describe('The signed decision record'),
  })
  .meta({ id: 'DeploymentDecision', example: DEPLOYMENT_DECISION_EXAMPLE });
export type DeploymentDecision = z.infer<typeof DeploymentDecision>;

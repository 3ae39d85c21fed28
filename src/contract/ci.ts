import { z } from 'zod';
import { DateTime, ExternalReceiptStatus } from './common.js';

/** §2.13 workflow-event adapter request: no additional properties at any level. */
export const CiVerificationRequest = z
  .strictObject({
    externalId: z.string().min(1).max(256),
    headSha: z.string().min(1).max(256),
    subject: z.strictObject({
      kind: z.string().min(1).max(256),
      summary: z.string().max(4096),
    }),
    repository: z.strictObject({
      fullName: z
        .string()
        .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be in owner/repo form'),
      htmlUrl: z.url().optional(),
    }),
    provenance: z.strictObject({ eventName: z.string().min(1).max(256) }),
    detailsUrl: z.url().optional(),
  })
  .meta({ id: 'CiVerificationRequest' });
export type CiVerificationRequest = z.infer<typeof CiVerificationRequest>;

/** §2.13 adapter response: no additional properties. */
export const CiVerificationResponse = z
  .strictObject({
    receiptId: z.uuid(),
    checkRunStatus: z.literal('completed'),
    receiptStatus: ExternalReceiptStatus,
    conclusion: z.enum(['success', 'failure', 'neutral']),
    title: z.string(),
    summary: z.string(),
    verificationTimestamp: DateTime,
    provenanceNote: z.string().optional(),
    detailsUrl: z.url().optional(),
  })
  .meta({ id: 'CiVerificationResponse' });
export type CiVerificationResponse = z.infer<typeof CiVerificationResponse>;

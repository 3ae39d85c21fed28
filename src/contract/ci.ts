import { z } from 'zod';
import { DateTime, ExternalReceiptStatus } from './common.js';
import { bounded, HttpUrl, LIMITS } from './limits.js';
import { BundleLogEntry, WitnessingState } from './log-entry.js';
import { CI_REQUEST_EXAMPLE, CI_RESPONSE_EXAMPLE } from './examples.js';

/** §2.13 workflow-event adapter request: no additional properties at any level. */
export const CiVerificationRequest = z
  .strictObject({
    externalId: bounded(LIMITS.id, 1),
    headSha: bounded(LIMITS.id, 1),
    subject: z.strictObject({
      kind: bounded(LIMITS.name, 1),
      summary: bounded(LIMITS.text),
    }),
    repository: z.strictObject({
      fullName: bounded(LIMITS.id).regex(
        /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/,
        'must be in owner/repo form',
      ),
      htmlUrl: HttpUrl.optional(),
    }),
    provenance: z.strictObject({ eventName: bounded(LIMITS.name, 1) }),
    detailsUrl: HttpUrl.optional(),
  })
  .meta({ id: 'CiVerificationRequest', example: CI_REQUEST_EXAMPLE });
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
    logEntry: BundleLogEntry.optional().describe(
      "Only with `Prefer: wait=N` once the receipt is in a signed checkpoint: the bundle's logEntry",
    ),
    witnessing: WitnessingState.optional().describe(
      'Only with `Prefer: wait=N, witnessed` where the log policy has a witness quorum',
    ),
  })
  .meta({ id: 'CiVerificationResponse', example: CI_RESPONSE_EXAMPLE });
export type CiVerificationResponse = z.infer<typeof CiVerificationResponse>;

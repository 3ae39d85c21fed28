import { z } from 'zod';
import { Decision, DateTime, ExternalReceiptStatus } from './common.js';
import {
  RECEIPT_LIST_ITEM_EXAMPLE,
  REVOCATION_RESPONSE_EXAMPLE,
  VERIFICATION_STATUS_EXAMPLE,
} from './examples.js';

/** §2.8 VerificationStatus: no additional properties. */
export const VerificationStatus = z
  .strictObject({
    verified: z.boolean(),
    integrityVerified: z.boolean(),
    signatureVerified: z.boolean(),
    signatureStatus: z.enum(['verified', 'invalid', 'unknown-kid', 'legacy-unsigned']),
    signatureReason: z.string().optional(),
    proofVerified: z.boolean(),
    recomputedHash: z.string(),
    storedHash: z.string(),
    inputsCommitment: z.string(),
    // Inline, not a $ref: OpenAPI 3.0.3 gives `nullable` no effect beside a bare allOf/$ref.
    receiptSignature: z
      .strictObject({ alg: z.literal('EdDSA'), kid: z.string() })
      .nullable()
      .describe('alg and kid of the stored signature; null for a legacy unsigned receipt'),
    revoked: z.boolean(),
  })
  .meta({ id: 'VerificationStatus', example: VERIFICATION_STATUS_EXAMPLE });
export type VerificationStatus = z.infer<typeof VerificationStatus>;

/** §2.11 RevocationResponse: no additional properties. */
export const RevocationResponse = z
  .strictObject({
    receiptStatus: ExternalReceiptStatus,
    result: z.enum(['REVOKED', 'ALREADY_REVOKED']),
    issuerId: z.string().optional(),
  })
  .meta({ id: 'RevocationResponse', example: REVOCATION_RESPONSE_EXAMPLE });

/** §2.12 ReceiptListItem: no additional properties, all fields required. */
export const ReceiptListItem = z
  .strictObject({
    receiptId: z.uuid(),
    status: ExternalReceiptStatus,
    decision: Decision,
    createdAt: DateTime,
    anchorStatus: z.string(),
    revoked: z.boolean(),
  })
  .meta({ id: 'ReceiptListItem', example: RECEIPT_LIST_ITEM_EXAMPLE });

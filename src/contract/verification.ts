import { z } from 'zod';
import {
  AnchorState,
  CheckResult,
  DateTime,
  Decision,
  ExternalReceiptStatus,
  ReceiptSignature,
  RevocationState,
} from './common.js';
import { Base64 } from './base64.js';
import { BundleLogEntry, WitnessingState } from './log-entry.js';
import { bounded, LIMITS } from './limits.js';
import {
  VERIFICATION_RECEIPT_EXAMPLE,
  VERIFICATION_REQUEST_EXAMPLE,
  VERIFICATION_RESPONSE_EXAMPLE,
} from './examples.js';

/** §2.1 VerificationRequest: additional properties are rejected at every level. */

const TwoLetters = z.string().length(2);

/** docs/decisions/0011-hashes-on-the-wire.md: `sha256:<64 lowercase hex>` or bare 64 lowercase hex (normalised later). */
export const DocHash = z
  .string()
  .max(71)
  .regex(/^(sha256:)?[0-9a-f]{64}$/, 'must be sha256:<64 lowercase hex> or 64 lowercase hex');

export const VerificationRequest = z
  .strictObject({
    bundleId: bounded(LIMITS.id, 1),
    transactionType: bounded(LIMITS.name, 1),
    ron: z.strictObject({
      provider: bounded(LIMITS.name),
      notaryId: bounded(LIMITS.id),
      commissionState: TwoLetters,
      sealPayload: bounded(LIMITS.sealPayload),
      sealScheme: z.enum(['SIM-ECDSA-v1']).optional(),
    }),
    doc: z.strictObject({
      docHash: DocHash,
      pdfBase64: Base64().optional(),
    }),
    policy: z.strictObject({ profile: bounded(LIMITS.profile) }),
    property: z.strictObject({
      parcelId: bounded(LIMITS.id),
      county: bounded(LIMITS.name),
      state: TwoLetters,
    }),
    ocrData: z
      .strictObject({
        notaryName: bounded(LIMITS.name).optional(),
        notaryCommissionId: bounded(LIMITS.id).optional(),
        propertyAddress: bounded(LIMITS.text).optional(),
        grantorName: bounded(LIMITS.name).optional(),
      })
      .optional(),
    registryScreening: z
      .strictObject({
        subjectName: z.string().min(2).max(256).optional(),
        sourceIds: z.array(bounded(LIMITS.id)).min(1).max(LIMITS.sourceIds).optional(),
        forceRefresh: z.boolean().optional(),
      })
      .optional(),
    timestamp: DateTime.max(LIMITS.timestamp).optional(),
  })
  .meta({ id: 'VerificationRequest', example: VERIFICATION_REQUEST_EXAMPLE });
export type VerificationRequest = z.infer<typeof VerificationRequest>;

/** §2.5 StoredReceipt: the signed document. Extra fields are allowed by the spec. */
export const StoredReceipt = z
  .looseObject({
    receiptVersion: z.string(),
    receiptId: z.uuid(),
    createdAt: DateTime,
    policyProfile: z.string(),
    inputsCommitment: z.string(),
    checks: z.array(CheckResult),
    decision: Decision,
    reasons: z.array(z.string()),
    receiptHash: z.string(),
    receiptSignature: ReceiptSignature.optional(),
  })
  .meta({ id: 'StoredReceipt' });

/** §2.3 VerificationResponse. */
export const VerificationResponse = z
  .looseObject({
    receiptVersion: z.string(),
    status: ExternalReceiptStatus,
    decision: Decision,
    reasons: z.array(z.string()),
    receiptId: z.uuid(),
    receiptHash: z.string(),
    receiptSignature: ReceiptSignature.optional(),
    anchor: AnchorState,
    revocation: RevocationState,
    logEntry: BundleLogEntry.optional().describe(
      "Only with `Prefer: wait=N` once the receipt is in a signed checkpoint: the bundle's logEntry",
    ),
    witnessing: WitnessingState.optional().describe(
      'Only with `Prefer: wait=N, witnessed` where the log policy has a witness quorum',
    ),
  })
  .meta({ id: 'VerificationResponse', example: VERIFICATION_RESPONSE_EXAMPLE });

/** §2.4 VerificationReceipt: the response fields plus the stored receipt views. */
export const VerificationReceipt = VerificationResponse.omit({ logEntry: true, witnessing: true })
  .extend({
    receipt: StoredReceipt,
    canonicalReceipt: z
      .string()
      .describe('RFC 8785 form of the receipt; its sha256 is receiptHash'),
    pdfUrl: z.string(),
  })
  .meta({ id: 'VerificationReceipt', example: VERIFICATION_RECEIPT_EXAMPLE });

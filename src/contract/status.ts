import { z } from 'zod';
import { STATUS_MEDIA_TYPE } from '@verification-receipts/verify/internals';
import { ConsistencyProof } from './common.js';

/**
 * The signed public status of a receipt (GET /status/{receiptHash}), as served, and as a
 * receipt bundle may carry it (its `status` member): signed on its own, so it counts wherever it
 * travels for as long as it is recent (docs/verification.md, section 3).
 */
const Signature = z.strictObject({
  alg: z.literal('EdDSA'),
  kid: z.string(),
  signature: z.string(),
});

export const PublicStatusDocument = z.strictObject({
  mediaType: z.literal(STATUS_MEDIA_TYPE),
  statement: z.strictObject({
    type: z.literal('verification-receipt-status/v1'),
    receiptHash: z.string(),
    status: z.enum(['active', 'revoked']),
    revokedAt: z.string().optional(),
    revokedBy: z.string().optional(),
    revocationLogIndex: z.number().int().optional(),
    inconsistency: z.string().optional(),
    anchor: z.strictObject({
      status: z.enum(['ANCHORED', 'PENDING']),
      logIndex: z.number().int().optional(),
    }),
    producedAt: z.string(),
  }),
  canonicalStatement: z.string().describe('RFC 8785 form of statement: the signed bytes'),
  signature: Signature.nullable(),
  log: z
    .strictObject({
      checkpoint: z.strictObject({
        origin: z.string(),
        treeSize: z.number(),
        rootHash: z.string(),
        checkpoint: z.string(),
        createdAt: z.string(),
      }),
      consistency: ConsistencyProof.optional(),
    })
    .optional(),
});

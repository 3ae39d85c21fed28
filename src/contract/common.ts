import { z } from 'zod';
import { ERROR_RESPONSE_EXAMPLE } from './examples.js';
import { ANCHOR_STATE_EXAMPLE } from './log-examples.js';

/** Shared pieces of the interface spec (its §2; the specification is kept outside this repository). */

export const ErrorResponse = z
  .looseObject({
    error: z.string().describe('Stable machine-readable error code, e.g. validation_failed'),
    message: z.string().optional().describe('Human-readable explanation'),
    details: z.unknown().optional().describe('Validation issues or request context'),
  })
  .meta({ id: 'ErrorResponse', example: ERROR_RESPONSE_EXAMPLE });

export const ExternalReceiptStatus = z
  .enum(['clean', 'failure', 'revoked', 'compliance_gap'])
  .meta({ id: 'ExternalReceiptStatus' });
export type ExternalReceiptStatus = z.infer<typeof ExternalReceiptStatus>;

export const Decision = z.enum(['ALLOW', 'FLAG', 'BLOCK']);
export type Decision = z.infer<typeof Decision>;

export const DateTime = z.iso.datetime({ offset: true });

/** `sha256:` followed by 64 lowercase hex digits: the wire form of every hash. */
export const Sha256Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const CheckResult = z
  .strictObject({
    checkId: z.string(),
    status: z.enum(['PASS', 'FAIL', 'WARN']),
    details: z.string().optional(),
  })
  .meta({ id: 'CheckResult' });
export type CheckResult = z.infer<typeof CheckResult>;

export const ReceiptSignature = z
  .strictObject({
    alg: z.literal('EdDSA'),
    kid: z.string().describe('RFC 7638 JWK thumbprint of the signing key'),
    signature: z.string().describe('base64url Ed25519 signature over the canonical receipt'),
  })
  .meta({ id: 'ReceiptSignature' });
export type ReceiptSignature = z.infer<typeof ReceiptSignature>;

export const AnchorState = z
  .looseObject({
    status: z.string().describe('PENDING, ANCHORED or NOT_APPLICABLE'),
    anchoredAt: DateTime.optional(),
    subjectDigest: z.string().optional().describe('sha256 of the log leaf (RFC 9162 leaf hash)'),
    subjectVersion: z.string().optional().describe('Leaf format, e.g. rfc9162-sha256-v1'),
    note: z.string().optional(),
    logIndex: z.number().int().min(0).optional().describe('Index of the receipt in the log'),
    treeSize: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Size of the tree the inclusion proof is for (POST /anchor/{receiptId})'),
    rootHash: z.string().optional().describe('Root hash of that tree, sha256:<hex>'),
    inclusionProof: z
      .array(z.string())
      .optional()
      .describe('RFC 9162 inclusion proof: sibling hashes, leaf to root, sha256:<hex>'),
    checkpoint: z
      .string()
      .optional()
      .describe('The signed checkpoint (C2SP signed note) committing to rootHash'),
    witnessed: z
      .boolean()
      .optional()
      .describe('With WITNESSES configured: the checkpoint has a quorum of witness cosignatures'),
  })
  .meta({ id: 'AnchorState', example: ANCHOR_STATE_EXAMPLE });
export type AnchorState = z.infer<typeof AnchorState>;

export const RevocationState = z
  .strictObject({ status: z.enum(['ACTIVE', 'REVOKED', 'ALREADY_REVOKED']) })
  .meta({ id: 'RevocationState' });

/** RFC 9162 consistency proof between two published tree sizes (GET /log/consistency). */
export const ConsistencyProof = z.strictObject({
  from: z.number(),
  to: z.number(),
  fromRoot: z.string(),
  toRoot: z.string(),
  proof: z.array(z.string()),
});

import { z } from 'zod';
import {
  BUNDLE_MEDIA_TYPE,
  PDF_SIGNER_STATEMENT_TYPE,
} from '@verification-receipts/verify/internals';
import { BundleLogEntry } from './log-entry.js';
import { PublicStatusDocument } from './status.js';
import { StoredReceipt } from './verification.js';

export { BundleLogEntry };

/**
 * The receipt bundle (docs/verification.md, packages/verify/src/bundle.ts), as served by
 * GET /api/v1/receipt/{receiptId}/bundle and published as a JSON Schema.
 */
const Sha256Wire = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const BundleKey = z.strictObject({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().describe('base64url raw 32-byte Ed25519 public key'),
  kid: z.string().describe('RFC 7638 JWK thumbprint'),
  alg: z.literal('EdDSA'),
});

export const PqBundleKey = z.strictObject({
  kty: z.literal('AKP'),
  alg: z.literal('ML-DSA-44'),
  pub: z.string().describe('base64url raw 1312-byte ML-DSA-44 public key'),
  kid: z.string().describe('RFC 7638 thumbprint over alg, kty and pub'),
});

export const PqSignature = z.strictObject({
  alg: z.literal('ML-DSA-44'),
  kid: z.string().describe('RFC 7638 thumbprint of publicKey'),
  signature: z
    .string()
    .describe(
      'base64url 2420-byte FIPS 204 ML-DSA-44 signature (pure, empty context) over canonicalReceipt',
    ),
  publicKey: PqBundleKey,
});

export const PdfSignerEndorsement = z.strictObject({
  statement: z.strictObject({
    type: z.literal(PDF_SIGNER_STATEMENT_TYPE),
    kid: z.string().describe('RFC 7638 thumbprint of the receipt key that endorses'),
    certificate: Sha256Wire.describe("SHA-256 of the PDF signing certificate's DER"),
  }),
  canonicalStatement: z.string().describe('RFC 8785 form of statement: the signed bytes'),
  signature: z.strictObject({
    alg: z.literal('EdDSA'),
    kid: z.string(),
    signature: z.string().describe('base64url Ed25519 signature over canonicalStatement'),
  }),
});

export const ReceiptBundle = z
  .strictObject({
    mediaType: z.literal(BUNDLE_MEDIA_TYPE),
    receipt: StoredReceipt,
    canonicalReceipt: z
      .string()
      .describe('RFC 8785 form of the receipt without hash and signature'),
    verificationMaterial: z.strictObject({
      publicKey: BundleKey.nullable().describe('The signing key; null for an unsigned receipt'),
    }),
    logEntry: BundleLogEntry.optional().describe('Present once the receipt is in a checkpoint'),
    pqSignature: PqSignature.optional().describe(
      'With PQ_SIGNATURES: the receipt signed again with ML-DSA-44 over the same canonical bytes (a verifier that does not know it ignores it)',
    ),
    pdfSigner: PdfSignerEndorsement.optional().describe(
      "In a PDF receipt's attached bundle: the receipt key's statement naming the certificate the PDF is signed with",
    ),
    status: PublicStatusDocument.optional().describe(
      'A signed status of the receipt (GET /status/{receiptHash}) kept with the bundle: signed on its own, it counts as current only while recent',
    ),
  })
  .meta({
    id: 'ReceiptBundle',
    title: 'Verification receipt bundle, version 1',
    description: `Media type ${BUNDLE_MEDIA_TYPE}; verified as described in docs/verification.md`,
  });

/** The JSON Schema (draft 2020-12) of the bundle, served and committed in docs/. */
export function bundleJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ReceiptBundle, { target: 'draft-2020-12' }) as Record<string, unknown>;
}

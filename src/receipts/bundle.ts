import type { InclusionEvidence } from '../anchoring/anchor-service.js';
import {
  BUNDLE_MEDIA_TYPE,
  LEAF_VERSION,
  type BundleKey,
  type ReceiptBundle,
} from '@verification-receipts/verify/internals';
import { canonicalReceipt } from './canonical.js';
import type { ReceiptRecord } from './ports.js';
import type { PqSigner } from './pq-signer.js';
import type { Ed25519PublicJwk } from './signer.js';
import type { StoredReceipt } from './types.js';

/**
 * The receipt bundle (docs/verification.md): the stored receipt with everything an offline
 * verifier needs. Its format is defined once, in packages/verify/src/bundle.ts (which the verifier
 * reads); this builds one from a stored receipt.
 */
export { BUNDLE_MEDIA_TYPE };

export interface LogMaterial {
  origin: string;
  noteVerifierKey: string;
  inclusion: InclusionEvidence;
}

/** A bundle built here: its receipt is a StoredReceipt. */
/** The bundle as the service builds it: a status is added by whoever keeps a signed one with it. */
export type ReceiptBundleOf = Omit<ReceiptBundle, 'receipt' | 'status'> & {
  receipt: StoredReceipt;
};

/**
 * The bundle with the receipt's ML-DSA-44 signature over the same canonical bytes (member
 * `pqSignature`, which verifiers that do not know it ignore); only a receipt signed with Ed25519
 * gets one, and the receipt itself, its hash and its log entry do not change.
 */
export function withPqSignature(
  bundle: ReceiptBundleOf,
  pq: PqSigner | undefined,
): ReceiptBundleOf {
  if (!pq || !bundle.receipt.receiptSignature) return bundle;
  const { kty, alg, pub, kid } = pq.publicJwk;
  const signature = pq.sign(new TextEncoder().encode(bundle.canonicalReceipt));
  return {
    ...bundle,
    pqSignature: {
      alg,
      kid,
      signature: Buffer.from(signature).toString('base64url'),
      publicKey: { kty, alg, pub, kid },
    },
  };
}

export function buildBundle(
  record: ReceiptRecord,
  signingKey: Ed25519PublicJwk | undefined,
  log: LogMaterial | undefined,
): ReceiptBundleOf {
  const key: BundleKey | null = signingKey
    ? { kty: 'OKP', crv: 'Ed25519', x: signingKey.x, kid: signingKey.kid, alg: 'EdDSA' }
    : null;
  return {
    mediaType: BUNDLE_MEDIA_TYPE,
    receipt: { ...record.receipt },
    canonicalReceipt: canonicalReceipt(record.receipt),
    verificationMaterial: { publicKey: key },
    ...(log
      ? {
          logEntry: {
            origin: log.origin,
            noteVerifierKey: log.noteVerifierKey,
            leafVersion: LEAF_VERSION,
            logIndex: log.inclusion.logIndex,
            treeSize: log.inclusion.treeSize,
            rootHash: log.inclusion.rootHash,
            inclusionProof: log.inclusion.inclusionProof,
            checkpoint: log.inclusion.checkpoint,
            ...(log.inclusion.timestamps ? { timestamps: log.inclusion.timestamps } : {}),
          },
        }
      : {}),
  };
}

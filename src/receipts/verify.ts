import type { VerificationStatus } from '../contract/lifecycle.js';
import { canonicalReceipt, sha256Digest } from './canonical.js';
import type { KeyRing } from './keyring.js';
import type { StoredReceipt } from './types.js';

/**
 * Later verification (spec §2.8, docs/decisions/0012-canonical-receipt.md): recompute the canonical hash from what is
 * stored, check the signature over the canonical bytes against the key ring, and combine.
 */
export function verifyReceipt(input: {
  receipt: StoredReceipt;
  /** The store row the receipt was read from: its id and time must be the signed ones. */
  row?: { id: string; createdAt: Date };
  /** False when the store's lifecycle state contradicts the log (e.g. a revocation). */
  consistent?: boolean;
  keyRing: KeyRing;
  revoked: boolean;
  proofVerified: boolean;
}): VerificationStatus {
  const { receipt, keyRing, revoked } = input;
  const canonical = new TextEncoder().encode(canonicalReceipt(receipt));
  const recomputedHash = sha256Digest(canonical);
  const integrityVerified =
    recomputedHash === receipt.receiptHash &&
    (!input.row || rowMatches(receipt, input.row)) &&
    input.consistent !== false;
  const signature = checkSignature(receipt, keyRing, canonical);
  const signatureVerified = signature.status === 'verified';
  return {
    verified: integrityVerified && signatureVerified && !revoked,
    integrityVerified,
    signatureVerified,
    signatureStatus: signature.status,
    ...(signature.reason ? { signatureReason: signature.reason } : {}),
    proofVerified: input.proofVerified,
    recomputedHash,
    storedHash: receipt.receiptHash,
    inputsCommitment: receipt.inputsCommitment,
    receiptSignature: receipt.receiptSignature
      ? { alg: receipt.receiptSignature.alg, kid: receipt.receiptSignature.kid }
      : null,
    revoked,
  };
}

/**
 * A body copied onto another row (with its hash and signature) still verifies on its own: the
 * row's id and creation time must also be the ones the receipt signs.
 */
function rowMatches(receipt: StoredReceipt, row: { id: string; createdAt: Date }): boolean {
  return receipt.receiptId === row.id && Date.parse(receipt.createdAt) === row.createdAt.getTime();
}

function checkSignature(
  receipt: StoredReceipt,
  keyRing: KeyRing,
  canonical: Uint8Array,
): { status: VerificationStatus['signatureStatus']; reason?: string } {
  const sig = receipt.receiptSignature;
  if (!sig) return { status: 'legacy-unsigned', reason: 'receipt was stored without a signature' };
  if (sig.alg !== 'EdDSA')
    return { status: 'invalid', reason: `unsupported alg ${String(sig.alg)}` };
  const result = keyRing.check(sig.kid, canonical, sig.signature);
  return result.status === 'verified' ? result : { status: result.status, reason: result.reason };
}

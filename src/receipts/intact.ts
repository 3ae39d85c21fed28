import { ServiceError } from '../errors.js';
import type { KeyRing } from './keyring.js';
import type { ReceiptRecord } from './ports.js';
import { verifyReceipt } from './verify.js';

/** What the service is about to sign or publish about a stored receipt. */
export type ReceiptUse =
  'attestation' | 'status' | 'bundle' | 'pdf' | 'check-run' | 'deployment-gate';

/** Told of every stored receipt that failed the check (logging and metrics). */
export type IntegrityFailureReporter = (failure: IntegrityFailure) => void;

export interface IntegrityFailure {
  receiptId: string;
  use: ReceiptUse;
  /** Set when the row itself fails later verification. */
  integrityVerified?: boolean;
  signatureStatus?: string;
  /** Set when the store's revocation state is not the log's (revocation-evidence.ts). */
  revocation?: string;
}

/**
 * Why a stored receipt may not be vouched for, or undefined when it may: the checks of later
 * verification (hash recomputed from the body, the row's id and time, the signature under the
 * trusted ring). An unsigned receipt passes only when the service signs nothing itself: with a
 * key, a missing signature means the row lost it, since every receipt is signed at issuance.
 */
export function integrityFailureOf(
  record: ReceiptRecord,
  keyRing: KeyRing,
  signing: boolean,
): { receiptId: string; integrityVerified: boolean; signatureStatus: string } | undefined {
  const status = verifyReceipt({
    receipt: record.receipt,
    row: { id: record.id, createdAt: record.createdAt },
    keyRing,
    revoked: false,
    proofVerified: false,
  });
  const signatureOk =
    status.signatureStatus === 'verified' ||
    (!signing && status.signatureStatus === 'legacy-unsigned');
  if (status.integrityVerified && signatureOk) return undefined;
  return {
    receiptId: record.id,
    integrityVerified: status.integrityVerified,
    signatureStatus: status.signatureStatus,
  };
}

/** The refusal: the store holds a receipt the service did not write, so it vouches for nothing. */
export function receiptIntegrityFailed(failure: IntegrityFailure): ServiceError {
  const what =
    failure.revocation === undefined
      ? `stored receipt ${failure.receiptId} does not verify`
      : `the store's revocation state of receipt ${failure.receiptId} is not the log's: ${failure.revocation}`;
  return new ServiceError('receipt_integrity_failed', `${what} (${failure.use} refused)`, {
    details: failure,
  });
}

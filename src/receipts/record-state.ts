import type { AnchorState } from '../contract/common.js';
import { provenRevocation, RECEIPT_ENTRY_VERSION } from './log-entries.js';
import type { ReceiptRecord } from './ports.js';

/** Lifecycle state of a stored receipt as every reader (API, PDF, GitHub) shows it. */

export function anchorStateOf(record: ReceiptRecord): AnchorState {
  const { leafIndex, anchoredAt, leafHash } = record.anchor;
  if (leafIndex !== null && anchoredAt && leafHash) {
    return {
      status: 'ANCHORED',
      anchoredAt: anchoredAt.toISOString(),
      subjectDigest: `sha256:${leafHash.toString('hex')}`,
      subjectVersion: RECEIPT_ENTRY_VERSION,
      logIndex: leafIndex,
    };
  }
  if (!record.hasProofArtifact) {
    return {
      status: 'PENDING',
      note: 'no proof artifact: resubmit with doc.pdfBase64 for this document to be anchored',
    };
  }
  return { status: 'PENDING' };
}

export interface Revocation {
  revoked: boolean;
  revokedAt?: Date;
  issuerId?: string;
  /** The log's revocation entry for this receipt, once sealed. */
  logIndex?: number;
  /** The store and the log disagree about this receipt's revocation (tampering or a bug). */
  inconsistency?: string;
}

/**
 * A receipt is revoked when the log holds a valid revocation entry for it (revoker's signature
 * checked), whatever the `receipts` row says; or when its row or audit row says so (written in
 * the same transaction as the entry). When the two sources disagree the answer says so.
 */
export function revocationOf(record: ReceiptRecord): Revocation {
  const logged = record.revocationEntry
    ? provenRevocation(record.revocationEntry.entry, record.receipt)
    : undefined;
  const storedAt = record.revokedAt ?? record.revocationAudit?.revokedAt;
  const inconsistency = disagreement(record, logged !== undefined, storedAt !== undefined);
  const extra = inconsistency ? { inconsistency } : {};
  if (!storedAt && !logged) return { revoked: false, ...extra };
  const revokedAt = storedAt ?? new Date(logged?.timestamp ?? 0);
  const issuerId = record.revokedBy ?? record.revocationAudit?.issuerId ?? logged?.issuerId;
  const logIndex = logged ? record.revocationEntry?.leafIndex : null;
  return {
    revoked: true,
    revokedAt,
    ...(issuerId ? { issuerId } : {}),
    ...(logIndex !== null && logIndex !== undefined ? { logIndex } : {}),
    ...extra,
  };
}

function disagreement(record: ReceiptRecord, logged: boolean, stored: boolean): string | undefined {
  if (record.revocationEntry && !logged) {
    return 'the log holds a revocation entry for this receipt that does not verify';
  }
  if (stored && !logged)
    return 'the store marks this receipt revoked but the log holds no revocation for it';
  if (logged && !record.revokedAt) return 'the log holds a revocation the store row does not show';
  return undefined;
}

export const isRevoked = (record: ReceiptRecord): boolean => revocationOf(record).revoked;

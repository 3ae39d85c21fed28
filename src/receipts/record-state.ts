import type { AnchorState } from '../contract/common.js';
import type { ReceiptRecord } from './ports.js';

/** Lifecycle state of a stored receipt as every reader (API, PDF, GitHub) shows it. */

export const ANCHOR_SUBJECT_VERSION = 'rfc9162-sha256-v1';

export function anchorStateOf(record: ReceiptRecord): AnchorState {
  const { leafIndex, anchoredAt, leafHash } = record.anchor;
  if (leafIndex !== null && anchoredAt && leafHash) {
    return {
      status: 'ANCHORED',
      anchoredAt: anchoredAt.toISOString(),
      subjectDigest: `sha256:${leafHash.toString('hex')}`,
      subjectVersion: ANCHOR_SUBJECT_VERSION,
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
}

/**
 * A receipt is revoked when its row says so or when a revocation audit row exists for it: the
 * audit row is written in the same transaction, so clearing `revoked_at` alone cannot un-revoke.
 */
export function revocationOf(record: ReceiptRecord): Revocation {
  const revokedAt = record.revokedAt ?? record.revocationAudit?.revokedAt;
  const issuerId = record.revokedBy ?? record.revocationAudit?.issuerId;
  if (!revokedAt) return { revoked: false };
  return { revoked: true, revokedAt, ...(issuerId ? { issuerId } : {}) };
}

export const isRevoked = (record: ReceiptRecord): boolean => revocationOf(record).revoked;

import type { AnchorState } from '../contract/common.js';
import { canonicalReceipt } from '../receipts/canonical.js';
import { statusOf } from '../receipts/status.js';
import type { ReceiptView } from '../receipts/types.js';
import type { ReceiptRecord, ReceiptSummary } from '../storage/receipts.js';

/** Wire views of a stored receipt (spec §2.3, §2.4, §2.12). Pure functions of the record. */

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

export function verificationResponseOf(record: ReceiptRecord) {
  const { receipt } = record;
  const revoked = record.revokedAt !== null;
  return {
    receiptVersion: receipt.receiptVersion,
    status: statusOf(receipt.decision, revoked),
    decision: receipt.decision,
    reasons: receipt.reasons,
    receiptId: receipt.receiptId,
    receiptHash: receipt.receiptHash,
    ...(receipt.receiptSignature ? { receiptSignature: receipt.receiptSignature } : {}),
    anchor: anchorStateOf(record),
    revocation: { status: revoked ? ('REVOKED' as const) : ('ACTIVE' as const) },
  };
}

export function receiptPath(id: string): string {
  return `/api/v1/receipt/${id}`;
}

export function absoluteUrl(publicUrl: string | undefined, path: string): string {
  return publicUrl ? `${publicUrl}${path}` : path;
}

export function receiptViewOf(record: ReceiptRecord, publicUrl: string | undefined): ReceiptView {
  const revoked = record.revokedAt !== null;
  return {
    receipt: record.receipt,
    canonicalReceipt: canonicalReceipt(record.receipt),
    status: statusOf(record.receipt.decision, revoked),
    revocation: revoked
      ? {
          status: 'REVOKED',
          revokedAt: record.revokedAt?.toISOString(),
          ...(record.revokedBy ? { issuerId: record.revokedBy } : {}),
        }
      : { status: 'ACTIVE' },
    anchor: anchorStateOf(record),
    verifyUrl: absoluteUrl(publicUrl, `${receiptPath(record.id)}/verify`),
  };
}

export function verificationReceiptOf(record: ReceiptRecord) {
  return {
    ...verificationResponseOf(record),
    receipt: record.receipt,
    canonicalReceipt: canonicalReceipt(record.receipt),
    pdfUrl: `${receiptPath(record.id)}/pdf`,
  };
}

export function listItemOf(summary: ReceiptSummary) {
  return {
    receiptId: summary.id,
    status: statusOf(summary.decision, summary.revoked),
    decision: summary.decision,
    createdAt: summary.createdAt,
    anchorStatus: summary.anchored ? 'ANCHORED' : 'PENDING',
    revoked: summary.revoked,
  };
}

import type { Decision } from '../contract/common.js';
import type { UnsignedReceipt } from '../receipts/canonical.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import type { StoredReceipt } from '../receipts/types.js';

/** Rows of the receipts queries as records, and the list's cursor. */

export interface ReceiptRow {
  id: string;
  tenant: string;
  body: UnsignedReceipt;
  receipt_hash: string;
  signature_kid: string | null;
  signature: string | null;
  created_at: Date;
  has_proof_artifact: boolean;
  external_id: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  leaf_index: string | number | null;
  anchored_at: Date | null;
  leaf_hash: Buffer | null;
  audit_revoked_at: Date | null;
  audit_issuer_id: string | null;
  revocation_entry: Uint8Array | null;
  revocation_leaf_index: string | number | null;
}

export interface SummaryRow {
  id: string;
  created_at: Date;
  revoked_at: Date | null;
  audit_revoked_at: Date | null;
  revocation_seq: string | number | null;
  leaf_index: string | number | null;
  decision: Decision;
  created_at_text: string;
}

export function toRecord(row: ReceiptRow): ReceiptRecord {
  const receipt: StoredReceipt = { ...row.body, receiptHash: row.receipt_hash };
  if (row.signature !== null || row.signature_kid !== null) {
    receipt.receiptSignature = {
      alg: 'EdDSA',
      kid: row.signature_kid ?? '',
      signature: row.signature ?? '',
    };
  }
  return {
    id: row.id,
    tenant: row.tenant,
    receipt,
    createdAt: row.created_at,
    hasProofArtifact: row.has_proof_artifact,
    externalId: row.external_id,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
    revocationAudit:
      row.audit_revoked_at && row.audit_issuer_id
        ? { revokedAt: row.audit_revoked_at, issuerId: row.audit_issuer_id }
        : null,
    revocationEntry: row.revocation_entry
      ? {
          entry: Buffer.from(row.revocation_entry),
          leafIndex: row.revocation_leaf_index === null ? null : Number(row.revocation_leaf_index),
        }
      : null,
    anchor: {
      leafIndex: row.leaf_index === null ? null : Number(row.leaf_index),
      anchoredAt: row.anchored_at,
      // PGlite returns bytea as Uint8Array, pg as Buffer: one type for callers
      leafHash: row.leaf_hash === null ? null : Buffer.from(row.leaf_hash),
    },
  };
}

/**
 * A cached record that a change to the receipts' state makes stale (src/storage/change-feed.ts):
 * a seal (`sealed`) gives positions only to entries that had none, so a record whose entries are
 * all placed (or that has none) stays; a change to one receipt (its id) drops that receipt only.
 */
export function staleReceipt(detail: string, _key: string, record: ReceiptRecord): boolean {
  if (detail === 'sealed') {
    return record.anchor.leafIndex === null || record.revocationEntry?.leafIndex === null;
  }
  return record.id === detail;
}

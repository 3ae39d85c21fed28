import { z } from 'zod';
import { VerificationReceipt } from '../contract/verification.js';
import { canonicalReceipt } from '../receipts/canonical.js';
import { receiptPath } from '../contract/links.js';
import type { ReceiptRecord, ReceiptSummary } from '../receipts/ports.js';
import { anchorStateOf, revocationOf } from '../receipts/record-state.js';
import { statusOf } from '../receipts/status.js';

/** Wire views of a stored receipt (spec §2.3, §2.4, §2.12). Pure functions of the record. */

export function verificationResponseOf(record: ReceiptRecord) {
  const { receipt } = record;
  const { revoked } = revocationOf(record);
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

export function verificationReceiptOf(record: ReceiptRecord) {
  return {
    ...verificationResponseOf(record),
    receipt: record.receipt,
    canonicalReceipt: canonicalReceipt(record.receipt),
    pdfUrl: `${receiptPath(record.id)}/pdf`,
  };
}

const receiptJson = new WeakMap<ReceiptRecord, Buffer>();

/**
 * GET /receipt/{id}'s body as UTF-8 JSON bytes, rendered (schema-checked, canonicalised,
 * serialised, encoded) once per record: a record read from the store's cache is shared, frozen,
 * and dropped when the receipt's state changes, so its body is a pure function of it. Kept as
 * bytes, the answer is written to the socket without encoding its 2 KB again per request.
 */
export function verificationReceiptJson(record: ReceiptRecord): Buffer {
  let json = receiptJson.get(record);
  if (json === undefined) {
    json = Buffer.from(
      JSON.stringify(z.encode(VerificationReceipt, verificationReceiptOf(record))),
    );
    receiptJson.set(record, json);
  }
  return json;
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

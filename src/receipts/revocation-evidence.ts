import type { LoggedRevocation } from './logged-revocations.js';
import { provenRevocation } from './log-entries.js';
import type { ReceiptRecord } from './ports.js';

/**
 * Whether the store's revocation state of a receipt is the log's (docs/log.md "Revocation
 * evidence"). The log decides: a receipt whose hash a sealed revocation entry names is revoked,
 * whatever its rows say, and the rows must then hold that revocation (its `revocations` row and
 * its entry row). A revocation still queued for the next seal has only the rows as evidence, so
 * there the rows must agree with each other. Answers why they disagree, or undefined.
 */
export function revocationEvidenceFailure(
  record: ReceiptRecord,
  logged: readonly LoggedRevocation[],
): string | undefined {
  for (const l of logged) {
    if (!provenRevocation(l.entry, record.receipt)) {
      return `the log's revocation entry at leaf ${l.leafIndex} names this receipt but does not verify`;
    }
  }
  const first = logged[0];
  if (first) return sealedDisagreement(record, logged, first.leafIndex);
  return queuedDisagreement(record);
}

/** The log holds a revocation: the rows must hold that same entry and its revocation row. */
function sealedDisagreement(
  record: ReceiptRecord,
  logged: readonly LoggedRevocation[],
  leafIndex: number,
): string | undefined {
  const row = record.revocationEntry;
  // a row read just before the seal that placed it has no position yet: its bytes decide
  const held =
    row !== null &&
    logged.some(
      (l) => l.entry.equals(row.entry) && (row.leafIndex === null || row.leafIndex === l.leafIndex),
    );
  if (!held) {
    return `the log holds a revocation of this receipt (leaf ${leafIndex}) that the store's log entries do not`;
  }
  if (!record.revocationAudit) {
    return `the log holds a revocation of this receipt (leaf ${leafIndex}) without its revocation row`;
  }
  return undefined;
}

/** No sealed revocation: a queued entry needs its row, and a row needs its entry. */
function queuedDisagreement(record: ReceiptRecord): string | undefined {
  const row = record.revocationEntry;
  if (row?.leafIndex !== null && row?.leafIndex !== undefined) {
    return `the store places this receipt's revocation at leaf ${row.leafIndex}, which the signed log does not hold`;
  }
  if (row && !provenRevocation(row.entry, record.receipt)) {
    return 'the queued revocation entry of this receipt does not verify';
  }
  if (row && !record.revocationAudit) {
    return 'a revocation entry of this receipt without its revocation row';
  }
  if (!row && (record.revocationAudit || record.revokedAt)) {
    return 'the store marks this receipt revoked but the log holds no revocation entry for it';
  }
  return undefined;
}

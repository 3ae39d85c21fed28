import { absoluteUrl, receiptPath, verifyPagePath } from '../contract/links.js';
import { canonicalReceipt } from '../receipts/canonical.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { anchorStateOf, revocationOf } from '../receipts/record-state.js';
import { statusOf } from '../receipts/status.js';
import type { ReceiptView } from '../receipts/types.js';

/** The view a PDF receipt renders; `serviceUrl` is absolute (a printed link must be). */
export function receiptViewOf(
  record: ReceiptRecord,
  serviceUrl: string,
  bundle?: unknown,
): ReceiptView {
  const revocation = revocationOf(record);
  return {
    receipt: record.receipt,
    canonicalReceipt: canonicalReceipt(record.receipt),
    status: statusOf(record.receipt.decision, revocation.revoked),
    revocation: revocation.revoked
      ? {
          status: 'REVOKED',
          revokedAt: revocation.revokedAt?.toISOString(),
          ...(revocation.issuerId ? { issuerId: revocation.issuerId } : {}),
        }
      : { status: 'ACTIVE' },
    anchor: anchorStateOf(record),
    serviceUrl,
    verifyUrl: absoluteUrl(serviceUrl, verifyPagePath(record.receipt.receiptHash)),
    apiVerifyUrl: absoluteUrl(serviceUrl, `${receiptPath(record.id)}/verify`),
    ...(bundle === undefined ? {} : { bundle }),
  };
}

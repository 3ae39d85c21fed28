import type { CiVerificationResponse } from '../contract/ci.js';
import type { ExternalReceiptStatus } from '../contract/common.js';
import type { ReceiptLinks, ReceiptRecord } from './ports.js';
import { anchorStateOf, isRevoked } from './record-state.js';
import { conclusionOf, statusOf } from './status.js';
import type { StoredReceipt } from './types.js';

const TITLES: Record<ExternalReceiptStatus, string> = {
  clean: 'Provenance verified',
  compliance_gap: 'Provenance needs review',
  failure: 'Provenance check failed',
  revoked: 'Receipt revoked',
};

export interface CiResultInput {
  receipt: StoredReceipt;
  status: ExternalReceiptStatus;
  anchorStatus: string;
  receiptUrl: string;
  pdfUrl: string;
  detailsUrl?: string | undefined;
}

/** The check-run style answer of the workflow adapter (spec §2.13), mapped per docs/decisions/0014-status-mapping.md. */
export function ciResultOf(input: CiResultInput): CiVerificationResponse {
  const { receipt, status } = input;
  const reasons = receipt.reasons.length ? receipt.reasons.join(', ') : 'none';
  const summary = [
    `Decision: ${receipt.decision} (status ${status})`,
    `Reasons: ${reasons}`,
    `Receipt: ${receipt.receiptId}`,
    `Receipt hash: ${receipt.receiptHash}`,
    `Receipt JSON: ${input.receiptUrl}`,
    `Receipt PDF: ${input.pdfUrl}`,
  ].join('\n');
  const result: CiVerificationResponse = {
    receiptId: receipt.receiptId,
    checkRunStatus: 'completed',
    receiptStatus: status,
    conclusion: conclusionOf(status),
    title: `${TITLES[status]} (${receipt.decision})`,
    summary,
    verificationTimestamp: receipt.createdAt,
    provenanceNote: `anchor ${input.anchorStatus}; signed receipt ${receipt.receiptSignature?.kid ? `kid ${receipt.receiptSignature.kid}` : 'unsigned'}`,
  };
  if (input.detailsUrl) result.detailsUrl = input.detailsUrl;
  return result;
}

/** The adapter answer for a stored CI receipt: the HTTP endpoint and the GitHub App both use it. */
export function ciResponseOf(
  record: ReceiptRecord,
  links: ReceiptLinks,
  detailsUrl?: string,
): CiVerificationResponse {
  const { json, pdf, absolute } = links.receipt(record.id);
  return ciResultOf({
    receipt: record.receipt,
    status: statusOf(record.receipt.decision, isRevoked(record)),
    anchorStatus: anchorStateOf(record).status,
    receiptUrl: json,
    pdfUrl: pdf,
    detailsUrl: detailsUrl ?? (absolute ? json : undefined),
  });
}

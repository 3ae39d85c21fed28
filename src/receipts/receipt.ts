import { canonicalReceipt, sha256Digest, type UnsignedReceipt } from './canonical.js';
import type { Signer } from './signer.js';
import type { CheckOutcome, ReceiptSubject, StoredReceipt } from './types.js';
import { decide, reasonsOf } from './checks/index.js';

/** Version of the receipt format (StoredReceipt fields and canonicalisation). */
export const RECEIPT_VERSION = '1.0';

export interface ReceiptDraft {
  receiptId: string;
  createdAt: string;
  policyProfile: string;
  inputsCommitment: string;
  subject: ReceiptSubject;
  outcomes: CheckOutcome[];
}

export interface BuiltReceipt {
  receipt: StoredReceipt;
  unsigned: UnsignedReceipt;
  canonical: string;
}

/**
 * Decide, canonicalise (RFC 8785), hash, sign. The signature covers the canonical bytes, the
 * same bytes that hash to receiptHash; without a signer the receipt is stored unsigned.
 */
export function buildReceipt(draft: ReceiptDraft, signer: Signer | undefined): BuiltReceipt {
  const unsigned: UnsignedReceipt = {
    receiptVersion: RECEIPT_VERSION,
    receiptId: draft.receiptId,
    createdAt: draft.createdAt,
    policyProfile: draft.policyProfile,
    inputsCommitment: draft.inputsCommitment,
    subject: draft.subject,
    checks: draft.outcomes.map(({ checkId, status, details }) =>
      details === undefined ? { checkId, status } : { checkId, status, details },
    ),
    decision: decide(draft.outcomes),
    reasons: reasonsOf(draft.outcomes),
  };
  const canonical = canonicalReceipt(unsigned);
  const bytes = new TextEncoder().encode(canonical);
  const receipt: StoredReceipt = { ...unsigned, receiptHash: sha256Digest(bytes) };
  if (signer) {
    const signature = Buffer.from(signer.sign(bytes)).toString('base64url');
    receipt.receiptSignature = { alg: signer.alg, kid: signer.kid, signature };
  }
  return { receipt, unsigned, canonical };
}

import { createHash, randomUUID } from 'node:crypto';
import type { Decision } from '../../../src/contract/common.js';
import type { NewReceipt } from '../../../src/receipts/ports.js';
import type { StoredReceipt } from '../../../src/receipts/types.js';

const sha256 = (text: string): string =>
  `sha256:${createHash('sha256').update(text).digest('hex')}`;

/**
 * A receipt as the domain hands it to the store. The store keeps documents, it does not judge
 * them: the hash and signature only need to be distinct and read back exactly.
 */
export function storedReceipt(
  change: {
    createdAt?: Date;
    decision?: Decision;
    bundleId?: string;
    docHash?: string;
    signed?: boolean;
  } = {},
): StoredReceipt {
  const receiptId = randomUUID();
  const receipt: StoredReceipt = {
    receiptVersion: '1',
    receiptId,
    createdAt: (change.createdAt ?? new Date()).toISOString(),
    policyProfile: 'ron-standard-v1',
    inputsCommitment: sha256(`inputs ${receiptId}`),
    subject: {
      kind: 'ron-document',
      bundleId: change.bundleId ?? `bundle-${receiptId.slice(0, 8)}`,
      transactionType: 'deed',
      docHash: change.docHash ?? sha256(`doc ${receiptId}`),
      notaryId: 'notary-1',
      property: { parcelId: 'P-1', county: 'Travis', state: 'TX' },
    },
    checks: [{ checkId: 'doc.hash', status: 'PASS', details: 'matches' }],
    decision: change.decision ?? 'ALLOW',
    reasons: change.decision && change.decision !== 'ALLOW' ? ['doc_hash_mismatch'] : [],
    receiptHash: sha256(`receipt ${receiptId}`),
  };
  if (change.signed !== false) {
    receipt.receiptSignature = { alg: 'EdDSA', kid: 'kid-1', signature: 'c2lnbmF0dXJl' };
  }
  return receipt;
}

/** The log entry of a receipt with a proof artifact: its hash's bytes and their leaf hash. */
export function logEntryOf(receipt: StoredReceipt): NonNullable<NewReceipt['logEntry']> {
  const entry = Buffer.from(receipt.receiptHash.slice('sha256:'.length), 'hex');
  const leaf = createHash('sha256')
    .update(Buffer.concat([Buffer.from([0]), entry]))
    .digest();
  return { entry, leafHash: leaf };
}

export function newReceipt(
  tenant: string,
  receipt: StoredReceipt = storedReceipt(),
  options: { externalId?: string; proof?: boolean } = {},
): NewReceipt {
  return {
    tenant,
    receipt,
    hasProofArtifact: options.proof ?? false,
    externalId: options.externalId,
    logEntry: options.proof ? logEntryOf(receipt) : undefined,
  };
}

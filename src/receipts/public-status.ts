import type { ConsistencyEvidence, PublishedCheckpoint } from '../anchoring/anchor-service.js';
import { STATUS_MEDIA_TYPE } from '@verification-receipts/verify/internals';
import { canonicalJson } from './canonical.js';
import type { ReceiptRecord } from './ports.js';
import { revocationOf } from './record-state.js';
import { signStatement, type Signer } from './signer.js';

/**
 * The public status of a receipt (GET /status/{receiptHash}, no key): a statement signed like a
 * receipt (RFC 8785 form, Ed25519, RFC 7638 kid) that says whether the receipt with that hash is
 * active or revoked and whether it is in the log, and nothing about its content. The hash is
 * unguessable without the receipt, so the endpoint tells nothing to whoever does not hold it.
 */
export { STATUS_MEDIA_TYPE };
/** The statement's `type`: a status statement can never be mistaken for a receipt. */
export const STATUS_STATEMENT_TYPE = 'verification-receipt-status/v1';

export interface StatusStatement {
  type: typeof STATUS_STATEMENT_TYPE;
  receiptHash: string;
  status: 'active' | 'revoked';
  revokedAt?: string;
  revokedBy?: string;
  /** Index of the revocation's entry in the log, once sealed. */
  revocationLogIndex?: number;
  /** The store and the log disagree about the revocation (the log's entry wins). */
  inconsistency?: string;
  anchor: { status: 'ANCHORED' | 'PENDING'; logIndex?: number };
  producedAt: string;
}

export interface PublicStatus {
  mediaType: typeof STATUS_MEDIA_TYPE;
  statement: StatusStatement;
  /** The exact bytes signed: RFC 8785 form of `statement`. */
  canonicalStatement: string;
  signature: { alg: 'EdDSA'; kid: string; signature: string } | null;
  /** The latest signed checkpoint, and a consistency proof from the size the caller holds. */
  log?: { checkpoint: PublishedCheckpoint; consistency?: ConsistencyEvidence };
}

export function statusStatementOf(record: ReceiptRecord, now: Date): StatusStatement {
  const revocation = revocationOf(record);
  const { leafIndex, anchoredAt } = record.anchor;
  return {
    type: STATUS_STATEMENT_TYPE,
    receiptHash: record.receipt.receiptHash,
    status: revocation.revoked ? 'revoked' : 'active',
    ...(revocation.revokedAt ? { revokedAt: revocation.revokedAt.toISOString() } : {}),
    ...(revocation.issuerId ? { revokedBy: revocation.issuerId } : {}),
    ...(revocation.logIndex !== undefined ? { revocationLogIndex: revocation.logIndex } : {}),
    ...(revocation.inconsistency ? { inconsistency: revocation.inconsistency } : {}),
    anchor:
      leafIndex !== null && anchoredAt
        ? { status: 'ANCHORED', logIndex: leafIndex }
        : { status: 'PENDING' },
    producedAt: now.toISOString(),
  };
}

/** The statement signed with the service key (unsigned when signing is disabled). */
export function signedStatus(statement: StatusStatement, signer: Signer | undefined): PublicStatus {
  if (!signer) {
    return {
      mediaType: STATUS_MEDIA_TYPE,
      statement,
      canonicalStatement: canonicalJson(statement),
      signature: null,
    };
  }
  return { mediaType: STATUS_MEDIA_TYPE, statement, ...signStatement(statement, signer) };
}

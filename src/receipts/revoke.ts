import { ReceiptError, receiptNotFound } from './errors.js';
import type { RevokerRecord, RevokerStore, RevocationStore } from './ports.js';
import { revocationEntry } from './log-entries.js';
import { authorizeRevocation, type RevocationHeaders } from './revocation.js';

export interface RevokeInput {
  tenant: string;
  /** The API key that made the call, recorded in the audit row. */
  apiKeyId: string;
  receiptId: string;
  headers: RevocationHeaders;
}

export type RevokeResult =
  | { receiptStatus: 'revoked'; result: 'REVOKED'; issuerId: string }
  | { receiptStatus: 'revoked'; result: 'ALREADY_REVOKED' };

export interface RevokeDeps {
  revokers: RevokerStore;
  revocations: RevocationStore;
  skewSeconds: number;
  now: () => Date;
}

/**
 * Revocation signed by a revoker: authorise the revoker (401/403), then one conditional update that
 * also appends the signed statement to the log (docs/log.md, revocation entry v1).
 */
export async function revokeReceipt(deps: RevokeDeps, input: RevokeInput): Promise<RevokeResult> {
  const revokerKey = await authorise(deps, input);
  const { headers } = input;
  const outcome = await deps.revocations.revoke({
    tenant: input.tenant,
    receiptId: input.receiptId,
    issuerId: input.headers.issuerId,
    apiKeyId: input.apiKeyId,
    signatureTimestamp: input.headers.timestamp,
    issuerSignature: input.headers.signature,
    logEntry: (receiptHash) =>
      revocationEntry({
        receiptHash,
        receiptId: input.receiptId,
        issuerId: headers.issuerId,
        issuerKey: revokerKey,
        timestamp: headers.timestamp,
        signature: headers.signature,
      }),
  });
  if (outcome === 'NOT_FOUND') throw receiptNotFound();
  return outcome === 'REVOKED'
    ? { receiptStatus: 'revoked', result: outcome, issuerId: input.headers.issuerId }
    : { receiptStatus: 'revoked', result: outcome };
}

/** The revoker's public key once it is authorised. */
async function authorise(deps: RevokeDeps, input: RevokeInput): Promise<string> {
  const revoker = await deps.revokers.find(input.headers.issuerId);
  const auth = authorizeRevocation({
    headers: input.headers,
    revoker,
    tenant: input.tenant,
    receiptId: input.receiptId,
    now: deps.now(),
    skewSeconds: deps.skewSeconds,
  });
  if (auth.ok) return (revoker as RevokerRecord).publicKey;
  const code = auth.code === 'forbidden' ? 'revocation_forbidden' : 'revocation_unauthorized';
  throw new ReceiptError(code, auth.reason);
}

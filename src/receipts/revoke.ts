import { ReceiptError, receiptNotFound } from './errors.js';
import type { IssuerStore, RevocationStore } from './ports.js';
import { authorizeRevocation, type IssuerHeaders } from './revocation.js';

export interface RevokeInput {
  tenant: string;
  /** The API key that made the call, recorded in the audit row. */
  apiKeyId: string;
  receiptId: string;
  headers: IssuerHeaders;
}

export type RevokeResult =
  | { receiptStatus: 'revoked'; result: 'REVOKED'; issuerId: string }
  | { receiptStatus: 'revoked'; result: 'ALREADY_REVOKED' };

export interface RevokeDeps {
  issuers: IssuerStore;
  revocations: RevocationStore;
  skewSeconds: number;
  now: () => Date;
}

/** Issuer-signed revocation: authorise the issuer (401/403), then one conditional update. */
export async function revokeReceipt(deps: RevokeDeps, input: RevokeInput): Promise<RevokeResult> {
  await authorise(deps, input);
  const outcome = await deps.revocations.revoke({
    tenant: input.tenant,
    receiptId: input.receiptId,
    issuerId: input.headers.issuerId,
    apiKeyId: input.apiKeyId,
    signatureTimestamp: input.headers.timestamp,
    issuerSignature: input.headers.signature,
  });
  if (outcome === 'NOT_FOUND') throw receiptNotFound();
  return outcome === 'REVOKED'
    ? { receiptStatus: 'revoked', result: outcome, issuerId: input.headers.issuerId }
    : { receiptStatus: 'revoked', result: outcome };
}

async function authorise(deps: RevokeDeps, input: RevokeInput): Promise<void> {
  const auth = authorizeRevocation({
    headers: input.headers,
    issuer: await deps.issuers.find(input.headers.issuerId),
    tenant: input.tenant,
    receiptId: input.receiptId,
    now: deps.now(),
    skewSeconds: deps.skewSeconds,
  });
  if (auth.ok) return;
  const code = auth.code === 'forbidden' ? 'revocation_forbidden' : 'revocation_unauthorized';
  throw new ReceiptError(code, auth.reason);
}

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import type { Repositories } from '../../src/storage/repositories.js';

/** Registers issuer `issuerId` (default escrow-co) with the public key of `pem` for `tenant`. */
export async function registerIssuer(
  repos: Repositories,
  pem: string,
  tenant = 'tenant-a',
  issuerId = 'escrow-co',
): Promise<void> {
  await repos.issuers.add({ issuerId, tenant, publicKey: rawEd25519PublicKey(pem) });
}

/** The three issuer headers of a revocation of `receiptId`, signed now. */
export function issuerHeaders(
  pem: string,
  receiptId: string,
  issuerId = 'escrow-co',
): Record<string, string> {
  const h = signRevocation(pem, issuerId, receiptId, new Date().toISOString());
  return {
    'x-issuer-id': h.issuerId,
    'x-signature-timestamp': h.timestamp,
    'x-issuer-signature': h.signature,
  };
}

/** POST /receipt/:id/revoke with `apiKey` and issuer headers signed by `pem`. */
export function revokeVia(
  app: FastifyInstance,
  apiKey: string,
  receiptId: string,
  pem: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${receiptId}/revoke`,
    headers: { 'x-api-key': apiKey, ...issuerHeaders(pem, receiptId) },
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RevocationResponse, VerificationStatus } from '../../contract/lifecycle.js';
import { authorizeRevocation } from '../../receipts/revocation.js';
import { verifyReceipt } from '../../receipts/verify.js';
import { ApiError, receiptNotFound } from '../api-error.js';
import { principalOf } from '../plugins/auth.js';
import { visibleReceipt } from './visible-receipt.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

const IssuerHeaders = z.object({
  'x-issuer-id': z.string().min(1).describe('Registered issuer id'),
  'x-signature-timestamp': z.string().min(1).describe('RFC 3339 time, within 300 s of server time'),
  'x-issuer-signature': z
    .string()
    .min(1)
    .describe('base64url Ed25519 over "revoke\\n<receiptId>\\n<issuerId>\\n<timestamp>"'),
});

/** POST /receipt/:id/verify (later verification) and POST /receipt/:id/revoke. */
export default async function lifecycleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/receipt/:receiptId/verify', {
    config: { scope: 'read' },
    schema: {
      tags: ['lifecycle'],
      summary: 'Re-check a stored receipt: integrity, signature, revocation, anchor proof',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      response: { 200: VerificationStatus, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request) => {
      const record = await visibleReceipt(app, request, request.params.receiptId);
      return verifyReceipt({
        receipt: record.receipt,
        keyRing: await app.keyRing.current(),
        revoked: record.revokedAt !== null,
        proofVerified: await app.anchoring.proofVerified(record),
      });
    },
  });

  app.post('/receipt/:receiptId/revoke', {
    config: { scope: 'revoke' },
    schema: {
      tags: ['lifecycle'],
      summary: 'Revoke a receipt (issuer-signed)',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      headers: IssuerHeaders,
      response: { 200: RevocationResponse, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request) => {
      const principal = principalOf(request);
      const { receiptId } = request.params;
      const headers = {
        issuerId: request.headers['x-issuer-id'],
        timestamp: request.headers['x-signature-timestamp'],
        signature: request.headers['x-issuer-signature'],
      };
      const auth = authorizeRevocation({
        headers,
        issuer: await app.repos.issuers.find(headers.issuerId),
        tenant: principal.tenant,
        receiptId,
        now: new Date(),
        skewSeconds: app.settings.issuerClockSkewSeconds,
      });
      if (!auth.ok) throw new ApiError(auth.code, auth.reason);
      const outcome = await app.repos.revocations.revoke({
        tenant: principal.tenant,
        receiptId,
        issuerId: headers.issuerId,
        apiKeyId: principal.keyId,
        signatureTimestamp: headers.timestamp,
        issuerSignature: headers.signature,
      });
      if (outcome === 'NOT_FOUND') throw receiptNotFound();
      return outcome === 'REVOKED'
        ? { receiptStatus: 'revoked' as const, result: outcome, issuerId: headers.issuerId }
        : { receiptStatus: 'revoked' as const, result: outcome };
    },
  });
}

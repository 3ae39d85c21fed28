import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RevocationResponse, VerificationStatus } from '../../contract/lifecycle.js';
import { bounded, LIMITS } from '../../contract/limits.js';
import { principalOf } from '../plugins/auth.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

const RevocationHeaders = z.object({
  'x-issuer-id': bounded(LIMITS.id, 1).describe(
    'The id of a revoker registered for the tenant (receipts issuers add)',
  ),
  'x-signature-timestamp': bounded(LIMITS.timestamp, 1).describe(
    'RFC 3339 time, within 300 s of server time',
  ),
  'x-issuer-signature': bounded(LIMITS.signature, 1).describe(
    'base64url Ed25519 over "revoke\\n<receiptId>\\n<issuerId>\\n<timestamp>"',
  ),
});

/** POST /receipt/:id/verify (later verification) and POST /receipt/:id/revoke. */
export default async function lifecycleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/receipt/:receiptId/verify', {
    config: { scope: 'read', cpuHeavy: true },
    schema: {
      tags: ['lifecycle'],
      summary:
        'Re-check a stored receipt (issues nothing): integrity, signature, revocation, anchor proof',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      response: { 200: VerificationStatus, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request) =>
      app.services.receipts.verifyLater(principalOf(request).tenant, request.params.receiptId),
  });

  app.post('/receipt/:receiptId/revoke', {
    config: { scope: 'revoke' },
    schema: {
      tags: ['lifecycle'],
      summary: 'Revoke a receipt (signed by a registered revoker)',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      headers: RevocationHeaders,
      response: { 200: RevocationResponse, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request) => {
      const principal = principalOf(request);
      return app.services.receipts.revoke({
        tenant: principal.tenant,
        apiKeyId: principal.keyId,
        receiptId: request.params.receiptId,
        headers: {
          issuerId: request.headers['x-issuer-id'],
          timestamp: request.headers['x-signature-timestamp'],
          signature: request.headers['x-issuer-signature'],
        },
      });
    },
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CiVerificationRequest, CiVerificationResponse } from '../../contract/ci.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas/responses.js';

/** POST /verifications/ci: a workflow run becomes a receipt and a check-run style result. */
export default async function ciRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/verifications/ci', {
    config: { scope: 'verify', cpuHeavy: true },
    schema: {
      tags: ['ci'],
      summary: 'Issue a receipt for a workflow run (idempotent per externalId)',
      security: [{ apiKey: [] }],
      body: CiVerificationRequest,
      response: { 200: CiVerificationResponse, ...errorResponses(400, 401, 403, 429, 503) },
    },
    handler: async (request) =>
      app.services.receipts.ciResult(principalOf(request).tenant, request.body),
  });
}

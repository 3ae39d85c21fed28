import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC_STATUS_EXAMPLE } from '../../contract/examples.js';
import { PublicStatusDocument } from '../../contract/status.js';
import { errorResponses } from '../schemas/responses.js';

const StatusParams = z.object({
  receiptHash: z
    .string()
    .max(71)
    .regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 lowercase hex>')
    .describe('The receipt hash (receiptHash of the receipt)'),
});

const StatusQuery = z.object({
  treeSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Tree size of a checkpoint you hold: the answer carries a consistency proof from it'),
});

const PublicStatus = PublicStatusDocument.meta({
  id: 'PublicStatus',
  example: PUBLIC_STATUS_EXAMPLE,
});

/**
 * GET /status/{receiptHash}: no key, rate limited per client address (the context registers the
 * limit). Tells whether the receipt with that hash is active or revoked, signed; nothing else.
 */
export default async function statusRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/status/:receiptHash', {
    schema: {
      tags: ['public'],
      summary: 'Signed public status of a receipt, by its hash (no API key)',
      params: StatusParams,
      querystring: StatusQuery,
      response: { 200: PublicStatus, ...errorResponses(400, 404, 429, 503) },
    },
    handler: async (request, reply) => {
      const status = await app.services.receipts.publicStatus(
        request.params.receiptHash,
        request.query.treeSize,
      );
      void reply.header('cache-control', 'no-store');
      return status;
    },
  });
}

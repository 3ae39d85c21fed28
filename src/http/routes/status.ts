import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConsistencyProof } from '../../contract/common.js';
import { PUBLIC_STATUS_EXAMPLE } from '../../contract/examples.js';
import { STATUS_MEDIA_TYPE } from '../../receipts/public-status.js';
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

const Signature = z.strictObject({
  alg: z.literal('EdDSA'),
  kid: z.string(),
  signature: z.string(),
});

const PublicStatus = z
  .strictObject({
    mediaType: z.literal(STATUS_MEDIA_TYPE),
    statement: z.strictObject({
      type: z.literal('verification-receipt-status/v1'),
      receiptHash: z.string(),
      status: z.enum(['active', 'revoked']),
      revokedAt: z.string().optional(),
      revokedBy: z.string().optional(),
      revocationLogIndex: z.number().int().optional(),
      inconsistency: z.string().optional(),
      anchor: z.strictObject({
        status: z.enum(['ANCHORED', 'PENDING']),
        logIndex: z.number().int().optional(),
      }),
      producedAt: z.string(),
    }),
    canonicalStatement: z.string().describe('RFC 8785 form of statement: the signed bytes'),
    signature: Signature.nullable(),
    log: z
      .strictObject({
        checkpoint: z.strictObject({
          origin: z.string(),
          treeSize: z.number(),
          rootHash: z.string(),
          checkpoint: z.string(),
          createdAt: z.string(),
        }),
        consistency: ConsistencyProof.optional(),
      })
      .optional(),
  })
  .meta({ id: 'PublicStatus', example: PUBLIC_STATUS_EXAMPLE });

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

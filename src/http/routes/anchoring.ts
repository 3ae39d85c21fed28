import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AnchorState } from '../../contract/common.js';
import { hashToWire } from '../../anchoring/wire.js';
import { ApiError } from '../api-error.js';
import { visibleReceipt } from './visible-receipt.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';
import { anchorStateOf } from '../views.js';

const CheckpointResponse = z
  .strictObject({
    origin: z.string(),
    treeSize: z.number().int(),
    rootHash: z.string(),
    checkpoint: z.string().describe('C2SP signed note (tlog-checkpoint)'),
    createdAt: z.string(),
  })
  .meta({ id: 'LogCheckpoint' });

const ConsistencyQuery = z.object({
  from: z.coerce.number().int().min(1).describe('Smaller tree size (a published checkpoint)'),
  to: z.coerce.number().int().min(1).describe('Larger tree size (a published checkpoint)'),
});

/** POST /anchor/:id, GET /log/checkpoint, GET /log/consistency. */
export default async function anchoringRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/anchor/:receiptId', {
    config: { scope: 'anchor' },
    schema: {
      tags: ['anchoring'],
      summary: 'Provenance state of a receipt, with inclusion proof once anchored',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      response: { 200: AnchorState, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
    },
    handler: async (request) => {
      const record = await visibleReceipt(app, request, request.params.receiptId);
      if (!record.hasProofArtifact) {
        throw new ApiError(
          'proof_artifact_required_for_anchor',
          'this receipt has no proof artifact (the request sent no doc.pdfBase64), so it cannot be anchored',
        );
      }
      return { ...anchorStateOf(record), ...(await app.anchoring.inclusion(record)) };
    },
  });

  app.get('/log/checkpoint', {
    config: { scope: 'read' },
    schema: {
      tags: ['anchoring'],
      summary: 'Latest signed checkpoint of the receipt log',
      security: [{ apiKey: [] }],
      response: { 200: CheckpointResponse, ...errorResponses(401, 403, 404, 429, 503) },
    },
    handler: async () => {
      const latest = await app.repos.log.latestCheckpoint();
      if (!latest) throw new ApiError('not_found', 'the log has no checkpoint yet');
      return {
        origin: app.settings.logOrigin,
        treeSize: latest.treeSize,
        rootHash: hashToWire(latest.rootHash),
        checkpoint: latest.note,
        createdAt: latest.createdAt.toISOString(),
      };
    },
  });

  app.get('/log/consistency', {
    config: { scope: 'read' },
    schema: {
      tags: ['anchoring'],
      summary: 'RFC 9162 consistency proof between two published tree sizes',
      security: [{ apiKey: [] }],
      querystring: ConsistencyQuery,
      response: {
        200: z.strictObject({
          from: z.number(),
          to: z.number(),
          fromRoot: z.string(),
          toRoot: z.string(),
          proof: z.array(z.string()),
        }),
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    },
    handler: async (request) => {
      const { from, to } = request.query;
      if (from > to) throw new ApiError('validation_failed', '`from` must not exceed `to`');
      const result = await app.anchoring.consistency(from, to);
      if (!result) throw new ApiError('not_found', 'both sizes must be published checkpoints');
      return {
        from,
        to,
        fromRoot: hashToWire(result.from.rootHash),
        toRoot: hashToWire(result.to.rootHash),
        proof: result.proof,
      };
    },
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AnchorState, ConsistencyProof } from '../../contract/common.js';
import { principalOf } from '../plugins/auth.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';
import { LOG_CHECKPOINT_EXAMPLE, LOG_CONSISTENCY_EXAMPLE } from '../../contract/log-examples.js';

const CheckpointResponse = z
  .strictObject({
    origin: z.string(),
    treeSize: z.number().int(),
    rootHash: z.string(),
    checkpoint: z.string().describe('C2SP signed note (tlog-checkpoint)'),
    createdAt: z.string(),
  })
  .meta({ id: 'LogCheckpoint', example: LOG_CHECKPOINT_EXAMPLE });

const ConsistencyQuery = z.object({
  from: z.coerce.number().int().min(1).describe('Smaller tree size (a published checkpoint)'),
  to: z.coerce.number().int().min(1).describe('Larger tree size (a published checkpoint)'),
});

/**
 * What a PENDING answer means and when to ask again: the sealer seals pending receipts every
 * SEAL_BATCH_MS (or, that being 0, every ANCHOR_INTERVAL_MS), or only when an operator runs it
 * (ANCHOR_INTERVAL_MS=0).
 */
export function pendingNote(intervalMs: number, batchMs = 0): string {
  const then = 'then POST /anchor/{receiptId} again for the inclusion proof';
  if (intervalMs <= 0) {
    return `not in the log yet: this service seals the log only on demand (ANCHOR_INTERVAL_MS=0), when an operator runs \`receipts anchor run\`; ${then}`;
  }
  const period = batchMs > 0 ? Math.min(batchMs, intervalMs) : intervalMs;
  const every = period % 1000 === 0 ? `${period / 1000} s` : `${period} ms`;
  return `not in the log yet: pending receipts are sealed into a new signed checkpoint every ${every}, so within ${every} and the seal in progress; ${then}`;
}

/** POST /anchor/:id, GET /log/checkpoint, GET /log/consistency. */
export default async function anchoringRoutes(fastify: FastifyInstance) {
  anchorRoute(fastify);
  checkpointRoute(fastify);
  consistencyRoute(fastify);
}

function anchorRoute(fastify: FastifyInstance): void {
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
      const { config } = app.services;
      const state = await app.services.receipts.anchor(
        principalOf(request).tenant,
        request.params.receiptId,
      );
      return state.status === 'PENDING' && !state.note
        ? { ...state, note: pendingNote(config.anchorIntervalMs, config.sealBatchMs) }
        : state;
    },
  });
}

function checkpointRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/log/checkpoint', {
    config: { scope: 'read' },
    schema: {
      tags: ['anchoring'],
      summary: 'Latest signed checkpoint of the receipt log',
      security: [{ apiKey: [] }],
      response: { 200: CheckpointResponse, ...errorResponses(401, 403, 404, 429, 503) },
    },
    handler: async () => app.services.anchoring.checkpoint(),
  });
}

function consistencyRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/log/consistency', {
    config: { scope: 'read' },
    schema: {
      tags: ['anchoring'],
      summary: 'RFC 9162 consistency proof between two published tree sizes',
      security: [{ apiKey: [] }],
      querystring: ConsistencyQuery,
      response: {
        200: ConsistencyProof.meta({ example: LOG_CONSISTENCY_EXAMPLE }),
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    },
    handler: async (request) =>
      app.services.anchoring.consistency(request.query.from, request.query.to),
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TLOG_PROOF_EXAMPLE } from '../../contract/tlog-examples.js';
import { principalOf } from '../plugins/auth.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

const DESCRIPTION = [
  "The receipt's log entry (the 32 raw bytes of its receiptHash; leaf hash SHA-256(0x00 ‖ entry))",
  'as a [C2SP tlog-proof](https://c2sp.org/tlog-proof): index, RFC 6962 inclusion proof and the',
  'latest signed checkpoint with the witness cosignatures the log holds. Check it against',
  '`/log/policy`. 409 `proof_artifact_required_for_anchor` while the receipt is in no signed',
  'checkpoint: never, without a proof artifact; until the next seal, with',
  '`details.anchorStatus: "PENDING"`.',
].join(' ');

/** GET /receipt/:id/tlog-proof: the receipt's inclusion in the log, as a standard proof file. */
export default async function tlogProofRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/receipt/:receiptId/tlog-proof', {
    config: { scope: 'read' },
    schema: {
      tags: ['receipts'],
      summary: "The receipt's inclusion in the log as a c2sp.org/tlog-proof@v1 file",
      description: DESCRIPTION,
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      produces: ['text/plain; charset=utf-8'],
      response: {
        200: z.string().describe('text/plain; charset=utf-8').meta({ example: TLOG_PROOF_EXAMPLE }),
        ...errorResponses(400, 401, 403, 404, 409, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const proof = await app.services.receipts.tlogProof(
        principalOf(request).tenant,
        request.params.receiptId,
      );
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(proof);
    },
  });
}

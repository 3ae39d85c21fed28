import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../plugins/auth.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

/** GET /receipt/:id/pdf: the stored receipt rendered as a PDF, current state included. */
export default async function pdfRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/receipt/:receiptId/pdf', {
    config: { scope: 'read', cpuHeavy: true },
    schema: {
      tags: ['receipts'],
      summary:
        'PDF rendering of a stored receipt, with its bundle attached (receipt-bundle.json), PAdES-signed',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      produces: ['application/pdf'],
      response: {
        200: z.any().describe('application/pdf document'),
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { id, pdf } = await app.services.receipts.signedPdf(
        principalOf(request).tenant,
        request.params.receiptId,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="receipt-${id}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  });
}

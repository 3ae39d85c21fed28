import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { renderReceiptPdf } from '../../pdf/receipt-pdf.js';
import { principalOf } from '../plugins/auth.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';
import { receiptViewOf } from '../views.js';

/** GET /receipt/:id/pdf: the stored receipt rendered as a PDF, current state included. */
export default async function pdfRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/receipt/:receiptId/pdf', {
    config: { scope: 'read', cpuHeavy: true },
    schema: {
      tags: ['receipts'],
      summary: 'PDF rendering of a stored receipt, with its bundle attached (receipt-bundle.json)',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      produces: ['application/pdf'],
      response: {
        200: z.any().describe('application/pdf document'),
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { receipts } = app.services;
      const record = await receipts.get(principalOf(request).tenant, request.params.receiptId);
      const bundle = await receipts.bundleOf(record, 'pdf');
      const { issuerName, pdfTimeZone } = app.services.config;
      const pdf = await renderReceiptPdf(receiptViewOf(record, app.settings.serviceUrl, bundle), {
        issuerName,
        timeZone: pdfTimeZone,
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="receipt-${record.id}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  });
}

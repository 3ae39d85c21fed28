import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ReceiptBundle } from '../../contract/bundle.js';
import { verifyCommand } from '../../contract/links.js';
import { BUNDLE_MEDIA_TYPE } from '@verification-receipts/verify/internals';
import { principalOf } from '../plugins/auth.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

/** GET /receipt/:id/bundle: the self-contained evidence of a receipt, for offline verification. */
export default async function bundleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/receipt/:receiptId/bundle', {
    config: { scope: 'read' },
    schema: {
      tags: ['receipts'],
      summary: 'The receipt bundle: everything needed to verify the receipt offline',
      description:
        `Media type ${BUNDLE_MEDIA_TYPE}. Verify it with ` +
        `\`${verifyCommand('FILE', '<PUBLIC_URL>')}\` or at /verify.`,
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      response: { 200: ReceiptBundle, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request, reply) => {
      const bundle = await app.services.receipts.bundle(
        principalOf(request).tenant,
        request.params.receiptId,
      );
      void reply.type(BUNDLE_MEDIA_TYPE);
      return bundle;
    },
  });
}

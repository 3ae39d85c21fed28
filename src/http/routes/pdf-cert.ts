import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PDF_SIGNING_CERT_EXAMPLE } from '../../contract/examples.js';

/**
 * GET /.well-known/pdf-signing-cert.pem: the certificate (and chain) PDF receipts are signed
 * with, so a relying party can check a PDF's signature (`openssl cms -verify -certfile`) or trust
 * the self-issued certificate in a PDF reader. No API key.
 */
export default async function pdfCertRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/.well-known/pdf-signing-cert.pem',
    {
      schema: {
        tags: ['public'],
        summary: 'The PDF signing certificate chain (PEM)',
        produces: ['application/x-pem-file'],
        response: {
          200: z
            .string()
            .describe('application/x-pem-file: CERTIFICATE blocks')
            .meta({ example: PDF_SIGNING_CERT_EXAMPLE }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return reply.type('application/x-pem-file').send(app.services.pdfSigner.certificatePem);
    },
  );
}

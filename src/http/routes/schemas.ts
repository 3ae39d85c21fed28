import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bundleJsonSchema } from '../../contract/bundle.js';

/** The published JSON Schema of the receipt bundle (also in docs/receipt-bundle.schema.json). */
export const BUNDLE_SCHEMA_PATH = '/schemas/receipt-bundle.v1.json';

export default async function schemaRoutes(app: FastifyInstance) {
  const schema = JSON.stringify(bundleJsonSchema(), null, 2);
  app.get(
    BUNDLE_SCHEMA_PATH,
    {
      schema: {
        tags: ['public'],
        summary: 'JSON Schema of the receipt bundle (version 1)',
        produces: ['application/schema+json'],
        response: { 200: z.looseObject({}).describe('JSON Schema, draft 2020-12') },
      },
    },
    async (_request, reply) =>
      reply
        .type('application/schema+json')
        .header('cache-control', 'public, max-age=3600')
        .send(schema),
  );
}

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { RECEIPT_BUNDLE_EXAMPLE } from '../../contract/bundle-example.js';
import { webhookEventComponents } from '../../contract/webhooks.js';
import { mergeSchemaTwins } from '../openapi-twins.js';

/**
 * OpenAPI 3.0.3 (contract version 1.1.0) generated from the zod schemas the routes validate
 * with, served at /openapi.json, with Swagger UI at /docs.
 */
export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Verification Receipt Service',
          version: '1.1.0',
          description:
            'Signed, canonical, hash-committed verification receipts. Every /api/v1 endpoint ' +
            'needs an API key in the x-api-key header.',
        },
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          },
        },
        tags: [
          { name: 'receipts', description: 'Issue, read and list receipts' },
          { name: 'lifecycle', description: 'Re-verify and revoke receipts' },
          { name: 'anchoring', description: 'Merkle log provenance' },
          { name: 'ci', description: 'Workflow-event adapter' },
          { name: 'deployments', description: "The GitHub App's deployment gate decisions" },
          {
            name: 'webhooks',
            description:
              'Signed events to relying parties (Standard Webhooks); the bodies are the *Event schemas',
          },
          { name: 'public', description: 'No API key needed' },
        ],
      },
      transform: jsonSchemaTransform,
      transformObject: (document) => {
        const generated = jsonSchemaTransformObject(document);
        const merged = mergeSchemaTwins(generated as Parameters<typeof mergeSchemaTwins>[0]);
        // The bundle's example lives here, not on the zod schema, so the published JSON Schema
        // (docs/receipt-bundle.schema.json) stays free of OpenAPI-only keywords.
        const bundle = merged.components?.schemas?.ReceiptBundle;
        if (bundle && typeof bundle === 'object') {
          Object.assign(bundle, { example: RECEIPT_BUNDLE_EXAMPLE });
        }
        // the events' bodies: sent, not served, so no route names them (docs/webhooks.md)
        Object.assign((merged.components ??= {}).schemas ?? {}, webhookEventComponents());
        return binaryBodies(merged as Doc) as typeof generated;
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      theme: { title: 'Verification Receipt Service API' },
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);

/** Media types answered as raw bytes; a route that also answers JSON declares one schema for both. */
const BINARY_TYPES = new Set(['application/timestamp-reply']);

type Doc = { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

/** Describes a binary alternative of a JSON answer as bytes, not as the JSON's schema. */
function binaryBodies<D extends Doc>(doc: D): D {
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const content = (response as { content?: Record<string, { schema?: unknown }> }).content;
        for (const [type, media] of Object.entries(content ?? {})) {
          if (BINARY_TYPES.has(type)) media.schema = { type: 'string', format: 'binary' };
        }
      }
    }
  }
  return doc;
}

import type { FastifyInstance } from 'fastify';

/**
 * Every trusted signing public key, retired ones included, so receipts verify offline. No API
 * key. Keys in the store that no chain of trust reaches are not published.
 */
export default async function jwksRoutes(app: FastifyInstance) {
  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['public'], summary: 'Signing public keys (JWK Set)' } },
    async (_request, reply) => {
      const ring = await app.services.keyRing.current();
      reply.header('cache-control', 'public, max-age=300');
      return { keys: ring.publicJwks };
    },
  );
}

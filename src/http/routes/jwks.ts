import type { FastifyInstance } from 'fastify';

/** Every signing public key, retired ones included, so receipts verify offline. No API key. */
export default async function jwksRoutes(app: FastifyInstance) {
  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['public'], summary: 'Signing public keys (JWK Set)' } },
    async (_request, reply) => {
      const keys = await app.repos.signingKeys.list();
      reply.header('cache-control', 'public, max-age=300');
      return { keys: keys.map((k) => k.jwk) };
    },
  );
}

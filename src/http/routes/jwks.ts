import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BundleKey, PqBundleKey } from '../../contract/bundle.js';
import { JWKS_EXAMPLE } from '../../contract/examples.js';

const JwkSet = z
  .strictObject({
    keys: z.array(
      z.union([
        BundleKey.extend({ use: z.literal('sig') }),
        PqBundleKey.extend({ use: z.literal('sig') }),
      ]),
    ),
  })
  .meta({
    id: 'JwkSet',
    description:
      'RFC 7517 JWK Set of Ed25519 keys (OKP), and with PQ_SIGNATURES the ML-DSA-44 key of post-quantum receipt signatures (kty AKP, draft-ietf-cose-dilithium)',
    example: JWKS_EXAMPLE,
  });

/**
 * Every trusted signing public key, retired ones included, so receipts verify offline. No API
 * key. Keys in the store that no chain of trust reaches are not published.
 */
export default async function jwksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['public'],
        summary: 'Signing public keys (JWK Set)',
        response: { 200: JwkSet },
      },
    },
    async (_request, reply) => {
      const ring = await app.services.keyRing.current();
      reply.header('cache-control', 'public, max-age=300');
      const pq = app.services.pqSigner?.publicJwk;
      return { keys: [...ring.publicJwks, ...(pq ? [pq] : [])] };
    },
  );
}

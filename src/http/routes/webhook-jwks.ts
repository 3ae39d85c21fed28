import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BundleKey } from '../../contract/bundle.js';

/** The path of the webhook key's JWK Set (docs/webhooks.md). */
export const WEBHOOK_JWKS_PATH = '/.well-known/webhook-jwks.json';

const WebhookJwkSet = z
  .strictObject({ keys: z.array(BundleKey.extend({ use: z.literal('sig') })).max(1) })
  .meta({
    id: 'WebhookJwkSet',
    description:
      'The Ed25519 key that signs v1a webhooks (its whpk_ form: whpk_ + base64 of x decoded). ' +
      'Not a receipt key: /.well-known/jwks.json never lists it. Empty when signing is disabled.',
    example: {
      keys: [
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: 'v1gTDpL9V0rHc6AKhVqF0JlG7HqUYvTx4JfQ3j3KN0c',
          kid: 'Yy3v2c4ZrJm0dQ7lUQm0K5cT1hZ6rV3aY0nX8eW2pLk',
          alg: 'EdDSA',
          use: 'sig',
        },
      ],
    },
  });

/** The v1a webhook key, published apart from the receipt keys (no API key needed). */
export default async function webhookJwksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    WEBHOOK_JWKS_PATH,
    {
      schema: {
        tags: ['public'],
        summary: 'The webhook signing public key (JWK Set)',
        response: { 200: WebhookJwkSet },
      },
    },
    async (_request, reply) => {
      const key = app.services.webhooks.key;
      reply.header('cache-control', 'public, max-age=300');
      return { keys: key ? [key.publicJwk] : [] };
    },
  );
}

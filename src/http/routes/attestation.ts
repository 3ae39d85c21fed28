import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IN_TOTO_PAYLOAD_TYPE, SIGSTORE_BUNDLE_MEDIA_TYPE } from '../../receipts/attestation.js';
import { SIGSTORE_BUNDLE_EXAMPLE } from '../../contract/examples.js';
import { principalOf } from '../plugins/auth.js';
import { ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

const SigstoreBundle = z
  .strictObject({
    mediaType: z.literal(SIGSTORE_BUNDLE_MEDIA_TYPE),
    verificationMaterial: z.strictObject({
      publicKey: z.strictObject({ hint: z.string().describe('kid of the JWKS key') }),
      tlogEntries: z.array(z.never()).describe('empty: the receipt log is C2SP, not Rekor'),
    }),
    dsseEnvelope: z.strictObject({
      payload: z.string().describe('base64 in-toto Statement v1 with a SLSA VSA v1 predicate'),
      payloadType: z.literal(IN_TOTO_PAYLOAD_TYPE),
      signatures: z.array(z.strictObject({ sig: z.string(), keyid: z.string() })),
    }),
  })
  .meta({ id: 'SigstoreBundle', example: SIGSTORE_BUNDLE_EXAMPLE });

/** GET /receipt/:id/attestation: the receipt as a Sigstore bundle (DSSE, in-toto, SLSA VSA). */
export default async function attestationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/receipt/:receiptId/attestation', {
    config: { scope: 'read' },
    schema: {
      tags: ['receipts'],
      summary: 'The receipt as a Sigstore bundle: a DSSE-signed in-toto Statement with a SLSA VSA',
      description: `Media type ${SIGSTORE_BUNDLE_MEDIA_TYPE}; signed with the service's Ed25519 key (verificationMaterial.publicKey.hint is its kid in /.well-known/jwks.json). Verify with a Sigstore verifier given that key, tlog and timestamp thresholds 0.`,
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      response: { 200: SigstoreBundle, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request, reply) => {
      const bundle = await app.services.receipts.attestation(
        principalOf(request).tenant,
        request.params.receiptId,
      );
      void reply.type(SIGSTORE_BUNDLE_MEDIA_TYPE);
      return bundle;
    },
  });
}

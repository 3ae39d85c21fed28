import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHECKPOINT_TIMESTAMPS_EXAMPLE } from '../../contract/log-examples.js';
import { ServiceError } from '../../errors.js';
import { errorResponses } from '../schemas/responses.js';

const TreeSizeParams = z.strictObject({
  treeSize: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'a tree size: a positive decimal number')
    .describe('The size of a published checkpoint'),
});

const CheckpointTimestamps = z
  .strictObject({
    treeSize: z.number().int().min(1),
    timestamps: z.array(
      z.strictObject({
        tsa: z.string().describe("The authority, as its certificate's common name"),
        genTime: z.string().describe('The time the token states (RFC 3161 genTime), ISO 8601'),
        token: z.string().describe('DER TimeStampToken (RFC 3161 2.4.2), base64'),
      }),
    ),
  })
  .meta({ id: 'CheckpointTimestamps', example: CHECKPOINT_TIMESTAMPS_EXAMPLE });

const TIMESTAMP_REPLY = 'application/timestamp-reply';

/**
 * GET /log/timestamps/<treeSize>: the RFC 3161 tokens over a checkpoint's note as the log signed
 * it (without cosignature lines), earliest first, as JSON; or, asked for
 * `application/timestamp-reply`, the earliest as an RFC 3161 TimeStampResp (status granted), which
 * `openssl ts -reply -in FILE -text` reads. 404 when the checkpoint has none (yet).
 */
export function logTimestampRoutes(
  fastify: FastifyInstance,
  route: { security: Record<string, string[]>[]; errors: Record<number, z.ZodType> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/log/timestamps/:treeSize', {
    schema: {
      tags: ['log'],
      summary: 'RFC 3161 time-stamp tokens over the checkpoint of a tree size',
      description:
        'JSON by default; `Accept: application/timestamp-reply` answers the earliest token as a DER TimeStampResp.',
      security: route.security,
      params: TreeSizeParams,
      produces: ['application/json', TIMESTAMP_REPLY],
      response: { 200: CheckpointTimestamps, ...errorResponses(400), ...route.errors },
    },
    handler: async (request, reply) => {
      const treeSize = Number(request.params.treeSize);
      const tokens = await app.services.anchoring.timestamps(treeSize);
      const [earliest] = tokens;
      if (!earliest) {
        throw new ServiceError('checkpoint_not_found', 'no time-stamp token over this checkpoint');
      }
      reply.header('cache-control', 'public, max-age=60').header('vary', 'accept');
      if (wantsReply(request.headers.accept)) {
        // a Buffer is sent as it is (Fastify serializes no Buffer)
        return reply.type(TIMESTAMP_REPLY).send(grantedReply(earliest.token) as never);
      }
      return {
        treeSize,
        timestamps: tokens.map((t) => ({
          tsa: t.tsaName,
          genTime: t.genTime.toISOString(),
          token: t.token.toString('base64'),
        })),
      };
    },
  });
}

/** The DER reply is sent only to a client that names its media type and not JSON first. */
function wantsReply(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]?.trim().toLowerCase());
  const reply = types.indexOf(TIMESTAMP_REPLY);
  const json = types.indexOf('application/json');
  return reply >= 0 && (json < 0 || reply < json);
}

/** TimeStampResp ::= SEQUENCE { status PKIStatusInfo (granted), timeStampToken }. */
function grantedReply(token: Buffer): Buffer {
  const status = Buffer.from([0x30, 0x03, 0x02, 0x01, 0x00]);
  const body = Buffer.concat([status, token]);
  return Buffer.concat([Buffer.from([0x30]), derLength(body.length), body]);
}

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

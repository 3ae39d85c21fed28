import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOG_VKEY_EXAMPLE } from '../../contract/examples.js';
import { LOG_CHECKPOINT_NOTE_EXAMPLE } from '../../contract/log-examples.js';
import { LOG_POLICY_EXAMPLE } from '../../contract/tlog-examples.js';
import { registerRateLimit, type RateLimitOptions } from '../plugins/rate-limit.js';
import { logTimestampRoutes } from './log-timestamps.js';
import { errorResponses } from '../schemas/responses.js';

export interface LogRoutesOptions {
  rateLimit: RateLimitOptions;
  /** LOG_PUBLIC: no key needed (the default); false puts every route behind a read-scoped key. */
  public: boolean;
}

/** Full tiles and partial tiles of a given width never change (c2sp.org/tlog-tiles). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The checkpoint changes at every seal: "SHOULD prevent caching beyond a few seconds". */
const SHORT_LIVED = 'public, max-age=5';

const text = (example: string) =>
  z.string().describe('text/plain; charset=utf-8').meta({ example });
const BYTES = z.any().describe('application/octet-stream');

type LogApp = ReturnType<FastifyInstance['withTypeProvider']>;

interface TextDoc {
  summary: string;
  description?: string;
  example: string;
}

/** A text document of the log: 404 when the service has none (no signing key). */
function textRoute(
  app: LogApp,
  url: string,
  doc: TextDoc & { security: Record<string, string[]>[]; errors: Record<number, z.ZodType> },
  body: () => Promise<string | undefined> | string | undefined,
) {
  const { security, errors, ...describe } = doc;
  app.get(url, {
    schema: {
      tags: ['log'],
      ...describe,
      security,
      produces: ['text/plain; charset=utf-8'],
      response: { 200: text(doc.example), ...errors },
    },
    handler: async (_request, reply) => {
      const document = await body();
      if (document === undefined) return reply.callNotFound();
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', SHORT_LIVED)
        .send(document);
    },
  });
}

/** The checkpoint, the note verifier key and the policy: the log's three text documents. */
function documentRoutes(
  app: LogApp,
  route: Pick<Parameters<typeof textRoute>[2], 'security' | 'errors'>,
) {
  textRoute(
    app,
    '/log/checkpoint',
    {
      ...route,
      summary: 'The latest signed checkpoint (c2sp.org/tlog-checkpoint), as a signed note',
      example: LOG_CHECKPOINT_NOTE_EXAMPLE,
    },
    async () => (await app.services.anchoring.checkpoint()).checkpoint,
  );
  textRoute(
    app,
    '/log/vkey',
    {
      ...route,
      summary: 'The note verifier key of the checkpoints (c2sp.org/signed-note vkey)',
      example: LOG_VKEY_EXAMPLE,
    },
    () => {
      const vkey = app.services.anchoring.verifierKey;
      return vkey ? `${vkey}\n` : undefined;
    },
  );
  textRoute(
    app,
    '/log/policy',
    {
      ...route,
      summary: 'The log, its witnesses and their quorum (c2sp.org/tlog-policy)',
      description:
        'One `log <vkey>` line, one `witness <name> <vkey>` line per witness in WITNESSES, and the quorum (WITNESS_QUORUM): `quorum none`, `quorum <witness>`, or a group of k of the witnesses.',
      example: LOG_POLICY_EXAMPLE,
    },
    () => app.services.anchoring.policy,
  );
}

/**
 * The log as a C2SP tlog-tiles log with prefix `<PUBLIC_URL>/log`: `/log/checkpoint` (the signed
 * note), `/log/tile/<L>/<N>[.p/<W>]` (hash tiles, height 8) and `/log/tile/entries/<N>[.p/<W>]`
 * (entry bundles), plus `/log/vkey`, the note verifier key to check checkpoints with, and
 * `/log/policy`, the c2sp.org/tlog-policy naming that key and the witnesses. Readable
 * from any origin (CORS), rate limited per client address with a limit of its own.
 */
export default async function logRoutes(fastify: FastifyInstance, opts: LogRoutesOptions) {
  const authenticate = await registerRateLimit(fastify, {
    ...opts.rateLimit,
    byAddress: opts.public,
    bucket: 'log',
  });
  if (!opts.public) {
    fastify.addHook('onRoute', (route) => {
      route.config = { ...route.config, scope: 'read' };
      const own = route.onRequest;
      route.onRequest = [...(Array.isArray(own) ? own : own ? [own] : []), authenticate];
    });
  }
  fastify.addHook('onSend', async (_request, reply) => {
    void reply.header('access-control-allow-origin', '*');
    void reply.header('cross-origin-resource-policy', 'cross-origin');
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const security = opts.public ? [] : [{ apiKey: [] }];
  const errors = errorResponses(...(opts.public ? [] : ([401, 403] as const)), 404, 429, 503);

  documentRoutes(app, { security, errors });
  logTimestampRoutes(fastify, { security, errors });

  app.get('/log/tile/*', {
    schema: {
      hide: true,
      tags: ['log'],
      summary: 'A hash tile or entry bundle (c2sp.org/tlog-tiles)',
      security,
      response: { 200: BYTES, ...errorResponses(400), ...errors },
    },
    handler: async (request, reply) => {
      const path = (request.params as { '*': string })['*'];
      const bytes = await app.services.anchoring.tile(path);
      return reply
        .type('application/octet-stream')
        .header('cache-control', IMMUTABLE)
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../schemas/responses.js';
import { isStoreUnavailable } from '../../storage/unavailable.js';

/** Liveness and readiness, no API key: for load balancers and orchestrators. */
const Live = z.strictObject({ status: z.literal('ok') }).meta({ example: { status: 'ok' } });
const Ready = z
  .strictObject({ status: z.literal('ready'), store: z.enum(['embedded', 'postgres']) })
  .meta({ example: { status: 'ready', store: 'postgres' } });

export default async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/healthz',
    { schema: { tags: ['public'], summary: 'Liveness', response: { 200: Live } } },
    async () => ({ status: 'ok' as const }),
  );

  const readiness = {
    tags: ['public'],
    summary: 'Readiness: the receipt store answers',
    response: { 200: Ready, ...errorResponses(503) },
  };
  app.get('/readyz', { schema: readiness }, async (request, reply) => {
    try {
      await app.repos.health.ping();
      return { status: 'ready' as const, store: app.repos.health.kind };
    } catch (err) {
      if (!isStoreUnavailable(err)) request.log.error({ err }, 'readiness probe failed');
      return reply
        .status(503)
        .send({ error: 'dependency_unavailable', message: 'the receipt store is unreachable' });
    }
  });
}

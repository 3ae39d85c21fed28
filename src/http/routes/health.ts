import type { FastifyInstance } from 'fastify';
import { isStoreUnavailable } from '../../storage/unavailable.js';

/** Liveness and readiness, no API key: for load balancers and orchestrators. */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { tags: ['public'] } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags: ['public'] } }, async (request, reply) => {
    try {
      await app.db.knex.raw('select 1');
      return { status: 'ready', store: app.db.kind };
    } catch (err) {
      if (!isStoreUnavailable(err)) request.log.error({ err }, 'readiness probe failed');
      return reply
        .status(503)
        .send({ error: 'dependency_unavailable', message: 'the receipt store is unreachable' });
    }
  });
}

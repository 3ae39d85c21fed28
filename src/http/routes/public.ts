import type { FastifyInstance } from 'fastify';
import { registerRateLimit, type RateLimitOptions } from '../plugins/rate-limit.js';
import policyRoutes from './policies.js';
import schemaRoutes from './schemas.js';
import statusRoutes from './status.js';

/**
 * What anyone may call without a key: the public status of a receipt, the bundle's schema, the
 * policy profiles. Rate limited per client address (RATE_LIMIT_MAX per window, shared through
 * Redis like the API's), never per header.
 */
export default async function publicRoutes(
  app: FastifyInstance,
  opts: { rateLimit: RateLimitOptions },
) {
  await registerRateLimit(app, { ...opts.rateLimit, byAddress: true });
  await app.register(statusRoutes);
  await app.register(schemaRoutes);
  await app.register(policyRoutes);
}

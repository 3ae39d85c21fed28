import type { FastifyInstance } from 'fastify';
import { registerRateLimit, type RateLimitOptions } from '../plugins/rate-limit.js';
import anchoringRoutes from './anchoring.js';
import ciRoutes from './ci.js';
import lifecycleRoutes from './lifecycle.js';
import pdfRoutes from './pdf.js';
import receiptRoutes from './receipts.js';

export interface ApiV1Options {
  rateLimit: RateLimitOptions;
}

/**
 * Everything under /api/v1: rate limited per key, then authenticated (onRequest, so before any
 * body is parsed or validated). Route modules below declare their scope in `config.scope`.
 */
export default async function apiV1(app: FastifyInstance, opts: ApiV1Options) {
  await registerRateLimit(app, opts.rateLimit);
  app.addHook('onRequest', app.authenticate);
  await app.register(receiptRoutes);
  await app.register(lifecycleRoutes);
  await app.register(pdfRoutes);
  await app.register(anchoringRoutes);
  await app.register(ciRoutes);
}

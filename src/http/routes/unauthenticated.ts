import type { FastifyInstance } from 'fastify';
import { registerRateLimit, type RateLimitOptions } from '../plugins/rate-limit.js';
import healthRoutes from './health.js';
import jwksRoutes from './jwks.js';
import pdfCertRoutes from './pdf-cert.js';
import landingRoutes from './landing.js';
import verifyPageRoutes from './verify-page.js';
import webhookJwksRoutes from './webhook-jwks.js';

/**
 * The routes anyone may call without a key besides /status and /log/ (which have limits of their
 * own): probes, the JWK Set, the browser verifier and the landing page at /. Each answers a per-address limit
 * (RATE_LIMIT_MAX per window, `request.ip` as TRUST_PROXY decides), so no address can make the
 * service ask its store without bound. Probes at one a second stay well under it.
 */
export default async function unauthenticatedRoutes(
  app: FastifyInstance,
  opts: { rateLimit: RateLimitOptions },
) {
  await registerRateLimit(app, { ...opts.rateLimit, byAddress: true, bucket: 'unauthenticated' });
  await app.register(healthRoutes);
  await app.register(jwksRoutes);
  await app.register(webhookJwksRoutes);
  await app.register(pdfCertRoutes);
  await app.register(verifyPageRoutes);
  await app.register(landingRoutes);
}

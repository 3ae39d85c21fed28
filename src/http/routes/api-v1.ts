import type { FastifyInstance } from 'fastify';
import { registerRateLimit, type RateLimitOptions } from '../plugins/rate-limit.js';
import { TurnGate } from '../turn-gate.js';
import anchoringRoutes from './anchoring.js';
import attestationRoutes from './attestation.js';
import bundleRoutes from './bundle.js';
import ciRoutes from './ci.js';
import deploymentRoutes from './deployments.js';
import lifecycleRoutes from './lifecycle.js';
import pdfRoutes from './pdf.js';
import receiptRoutes from './receipts.js';
import repositoryPolicyRoutes from './repository-policy.js';
import tlogProofRoutes from './tlog-proof.js';
import webhookRoutes from './webhooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Milliseconds of synchronous CPU per request (issuance, PDF): started via the TurnGate. */
    cpuHeavy?: boolean;
  }
}

export interface ApiV1Options {
  rateLimit: RateLimitOptions;
}

/** Heavy handlers started per event-loop iteration (about 2-9 ms of CPU each). */
const HEAVY_PER_TURN = 4;

/**
 * Everything under /api/v1: rate limited per key (or address), then authenticated, both onRequest
 * so before any body is parsed or validated. The authentication hook is appended to each route's
 * own onRequest hooks, after the rate limit's: a context-level hook would run first, so requests
 * with bad keys were never limited. Route modules below declare their scope in `config.scope`,
 * and `config.cpuHeavy` when the handler is CPU-bound: those start through one TurnGate, after
 * authentication and validation, so a saturated service still answers cheap requests promptly.
 */
export default async function apiV1(app: FastifyInstance, opts: ApiV1Options) {
  const authenticate = await registerRateLimit(app, opts.rateLimit);
  const gate = new TurnGate(HEAVY_PER_TURN);
  app.addHook('onRoute', (route) => {
    const own = route.onRequest;
    route.onRequest = [...(Array.isArray(own) ? own : own ? [own] : []), authenticate];
    if (route.config?.cpuHeavy) {
      const pre = route.preHandler;
      route.preHandler = [...(Array.isArray(pre) ? pre : pre ? [pre] : []), () => gate.enter()];
    }
  });
  await app.register(receiptRoutes);
  await app.register(lifecycleRoutes);
  await app.register(pdfRoutes);
  await app.register(bundleRoutes);
  await app.register(tlogProofRoutes);
  await app.register(attestationRoutes);
  await app.register(anchoringRoutes);
  await app.register(ciRoutes);
  await app.register(deploymentRoutes);
  await app.register(repositoryPolicyRoutes);
  await app.register(webhookRoutes);
}

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { parseToken } from '../../auth/api-key-token.js';
import { ApiError } from '../api-error.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  redisUrl: string | undefined;
  /** Public routes (no key): one bucket per client address, whatever headers say. */
  byAddress?: boolean;
  /** Counters of its own (in Redis too), for a context whose limit differs from the API's. */
  bucket?: string;
}

/** Authenticates a request (app.authenticate) behind the per-address failure limit. */
export type GuardedAuthenticate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Per-API-key rate limit for the routes of the context it is registered in. The bucket is the
 * key id (public part of the key, no database lookup), or the client address when no
 * well-formed key is sent. With REDIS_URL the counters live in Redis, so every replica behind a
 * load balancer enforces one shared limit; if Redis is unreachable requests are let through
 * (availability over strictness) and the failure is logged.
 *
 * Keys that do not authenticate are limited per client address before any store access: every
 * failed authentication counts against the address, and once RATE_LIMIT_MAX failures are counted
 * in the window, requests from it get 429 without a key lookup (a made-up key has a fresh key
 * bucket each time, so the per-key limit alone would let it cost one lookup per request).
 *
 * Returns the authentication hook to run after the limit, on every route of the context.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  opts: RateLimitOptions,
): Promise<GuardedAuthenticate> {
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, {
        connectTimeout: 1_000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: false,
      })
    : undefined;
  redis?.on('error', (err) => app.log.warn({ err }, 'rate-limit redis error'));
  if (redis) app.addHook('onClose', async () => void redis.disconnect());

  await app.register(rateLimit, {
    max: opts.max,
    timeWindow: opts.windowMs,
    hook: 'onRequest',
    redis,
    nameSpace: opts.bucket ? `receipts-rl:${opts.bucket}:` : 'receipts-rl:',
    skipOnError: true,
    keyGenerator: (request: FastifyRequest) => {
      if (opts.byAddress) return `public:${request.ip}`;
      const header = request.headers['x-api-key'];
      const parsed = typeof header === 'string' ? parseToken(header) : undefined;
      return parsed ? `key:${parsed.keyId}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) => {
      app.metrics?.rateLimited(opts.bucket ?? (opts.byAddress ? 'public' : 'api'));
      return new ApiError('rate_limited', `rate limit exceeded, retry in ${context.after}`, {
        limit: context.max,
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      });
    },
  });
  const failures = app.createRateLimit({
    keyGenerator: (request: FastifyRequest) => `authfail:${request.ip}`,
  });
  return async function authenticateLimited(request, reply) {
    const before = await failures(request, { increment: false });
    if (!before.isAllowed && before.remaining === 0) {
      app.metrics?.rateLimited('failed-auth');
      void reply.header('retry-after', before.ttlInSeconds);
      throw new ApiError('rate_limited', 'too many failed authentications from this address', {
        limit: before.max,
        retryAfterSeconds: before.ttlInSeconds,
      });
    }
    try {
      await app.authenticate(request);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'unauthorized') await failures(request);
      throw err;
    }
  };
}

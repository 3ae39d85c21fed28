import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
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
 * Rate limits for the routes of the context it is registered in. Public contexts (`byAddress`)
 * count every request per client address (`request.ip`, which TRUST_PROXY decides), before the
 * route runs. Keyed contexts count per API key, and only requests that authenticated: a request
 * naming someone's key id with a wrong secret costs that key nothing. With REDIS_URL the counters
 * live in Redis, so every replica enforces one shared limit; if Redis is unreachable requests are
 * let through (availability over strictness) and the failure is logged.
 *
 * Failed authentications are limited per client address: past RATE_LIMIT_MAX failures in the
 * window, a key that does not authenticate gets 429 instead of 401. A key that authenticates is
 * never refused because of failures: the limit is on failures, not on the address. Checking a key
 * costs no store round trip (active keys are held in memory, src/storage/api-keys.ts), so
 * made-up keys cost the store nothing either.
 *
 * Returns the authentication hook to run on every route of a keyed context.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  opts: RateLimitOptions,
): Promise<GuardedAuthenticate> {
  const bucket = opts.bucket ?? (opts.byAddress ? 'public' : 'api');
  await registerCounters(app, opts, bucket);
  return guardedAuthenticate(app, bucket);
}

/** @fastify/rate-limit for the context: global per address when public, else checked by hand. */
async function registerCounters(
  app: FastifyInstance,
  opts: RateLimitOptions,
  bucket: string,
): Promise<void> {
  await app.register(rateLimit, {
    global: opts.byAddress === true,
    max: opts.max,
    timeWindow: opts.windowMs,
    hook: 'onRequest',
    redis: opts.redisUrl ? sharedCounters(app, opts.redisUrl) : undefined,
    nameSpace: opts.bucket ? `receipts-rl:${opts.bucket}:` : 'receipts-rl:',
    skipOnError: true,
    keyGenerator: (request: FastifyRequest) => `public:${request.ip}`,
    errorResponseBuilder: (_request, context) => {
      app.metrics?.rateLimited(bucket);
      return new ApiError('rate_limited', `rate limit exceeded, retry in ${context.after}`, {
        limit: context.max,
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      });
    },
  });
}

/**
 * Authentication behind the per-address failure limit, then the per-key limit for a key that
 * authenticated (a wrong secret costs the key it names nothing).
 */
function guardedAuthenticate(app: FastifyInstance, bucket: string): GuardedAuthenticate {
  const perKey = app.createRateLimit({
    keyGenerator: (request: FastifyRequest) => `key:${request.principal?.keyId ?? ''}`,
  });
  const failures = app.createRateLimit({
    keyGenerator: (request: FastifyRequest) => `authfail:${request.ip}`,
  });
  return async function authenticateLimited(request, reply) {
    let denied: unknown;
    try {
      await app.authenticate(request);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'unauthorized') denied = err;
      else {
        const counted = await failures(request);
        if (!exceeded(counted)) throw err;
        const message = 'too many failed authentications from this address';
        throw refuse(app, reply, counted, 'failed-auth', message);
      }
    }
    if (request.principal) {
      const limit = await perKey(request);
      if (exceeded(limit)) {
        const message = `rate limit exceeded, retry in ${limit.ttlInSeconds} s`;
        throw refuse(app, reply, limit, bucket, message);
      }
    }
    if (denied !== undefined) throw denied;
  };
}

const CONNECT_TIMEOUT_MS = 1_000;

/** Resolves once `redis` is connected, or after `ms` (an unreachable Redis does not stop start-up). */
function connected(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

/**
 * The Redis connection that shares the counters between replicas: it fails fast (one retry, no
 * offline queue), so an unreachable Redis lets requests through (`skipOnError`) with a warning
 * instead of holding them; closed with the app.
 */
function sharedCounters(app: FastifyInstance, url: string): Redis {
  const redis = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
  });
  redis.on('error', (err) => app.log.warn({ err }, 'rate-limit redis error'));
  // a replica serves once its counters are shared (or the connect timeout passed): a request
  // let through before the connection is up would not be counted by the other replicas. The
  // wait starts now, so the app's several connections time out together, not one after another.
  const up = connected(redis, CONNECT_TIMEOUT_MS);
  app.addHook('onReady', () => up);
  app.addHook('onClose', async () => void redis.disconnect());
  return redis;
}

/** Whether a limiter checked by hand counted past its maximum (`isAllowed` is the allow list). */
function exceeded(result: { isAllowed: boolean }): result is Refused & { isAllowed: false } {
  return !result.isAllowed && (result as { isExceeded?: boolean }).isExceeded === true;
}

/** What a limiter checked by hand says when it refuses. */
interface Refused {
  max: number;
  ttlInSeconds: number;
}

/** The 429 of a limiter checked by hand: Retry-After, counted, an ErrorResponse. */
function refuse(
  app: FastifyInstance,
  reply: FastifyReply,
  result: Refused,
  bucket: string,
  message: string,
): ApiError {
  app.metrics?.rateLimited(bucket);
  void reply.header('retry-after', result.ttlInSeconds);
  return new ApiError('rate_limited', message, {
    limit: result.max,
    retryAfterSeconds: result.ttlInSeconds,
  });
}

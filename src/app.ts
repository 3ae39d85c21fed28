import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { ProbotOctokit } from 'probot';
import { startSealer } from './anchoring/sealer.js';
import { adminSocketPath, startAdminChannel } from './cli/admin-channel.js';
import { runCli } from './cli/run.js';
import type { Config } from './config.js';
import { API_PREFIX } from './contract/links.js';
import { githubDefaultBranches } from './github/default-branches.js';
import githubAppPlugin, { githubProbot } from './github/plugin.js';
import authPlugin from './http/plugins/auth.js';
import errorsPlugin, { clientErrorHandler, malformedUrlHandler } from './http/plugins/errors.js';
import jsonBodyPlugin from './http/plugins/json-body.js';
import metricsPlugin from './http/plugins/metrics.js';
import openapiPlugin from './http/plugins/openapi.js';
import servicesPlugin from './http/plugins/services.js';
import securityHeadersPlugin from './http/plugins/security-headers.js';
import storagePlugin from './http/plugins/storage.js';
import timestampingPlugin from './http/plugins/timestamping.js';
import apiV1 from './http/routes/api-v1.js';
import logRoutes from './http/routes/log.js';
import publicRoutes from './http/routes/public.js';
import unauthenticatedRoutes from './http/routes/unauthenticated.js';
import { limitConnections } from './http/connection-limits.js';
import { requestIdOf, rewriteUrl } from './http/request-hygiene.js';
import { openDatabase, type Database, type StoreLog } from './storage/database.js';
import { startDispatcher } from './webhooks/dispatch-loop.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The parsed configuration (never process.env). */
    settings: Config;
  }
}

export interface AppOptions {
  config: Config;
  /** An already-open store (tests, CLI-driven setups); otherwise the app opens and owns one. */
  db?: Database;
  logger?: FastifyServerOptions['logger'];
  /** The Octokit class the GitHub App builds its clients from (tests inject one without retries). */
  octokit?: typeof ProbotOctokit;
}

/** Never logged, whatever a future serializer decides to include. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers["x-issuer-signature"]',
  'req.headers["x-ci-oidc-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

/** A caller's logger options (tests, embedding) keep the redaction: theirs is added to ours. */
function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (typeof logger !== 'object' || logger === null) return logger;
  const own = Array.isArray(logger.redact) ? logger.redact : (logger.redact?.paths ?? []);
  const censor = Array.isArray(logger.redact) ? undefined : logger.redact?.censor;
  return {
    ...logger,
    redact: { paths: [...REDACTED_PATHS, ...own], censor: censor ?? '[redacted]' },
  };
}

/** Fastify's trustProxy: a hop count as the function it stands for (the types take no number). */
function trustProxyOption(trust: Config['trustProxy']): boolean | string[] | TrustHops {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}
type TrustHops = (address: string, hop: number) => boolean;

/**
 * The embedded store is single-process: the server lets the operator CLI run its commands
 * through `DATA_DIR/admin.sock` (src/cli/admin-channel.ts) instead of refusing them.
 */
async function openAdminChannel(app: FastifyInstance, config: Config): Promise<void> {
  if (config.store.kind !== 'embedded' || config.store.dataDir === null) return;
  const channel = await startAdminChannel(
    adminSocketPath(config.store.dataDir),
    app.services,
    (argv, io, services) => runCli(argv, io, {}, services),
  );
  app.addHook('onClose', () => channel.close());
}

/**
 * The sealer (src/anchoring/sealer.ts) runs while the app does: started once the services exist,
 * stopped before the store closes. ANCHOR_INTERVAL_MS=0 or signing disabled: none.
 */
function runSealer(app: FastifyInstance, config: Config): void {
  const { anchoring } = app.services;
  if (config.anchorIntervalMs <= 0 || !anchoring.enabled) return;
  const sealer = startSealer(
    anchoring,
    { batchMs: config.sealBatchMs, intervalMs: config.anchorIntervalMs },
    app.log,
  );
  app.addHook('onClose', () => sealer.stop());
}

/**
 * The webhook dispatcher (src/webhooks/dispatch-loop.ts) runs while the app does, woken by the
 * store's delivery notices and asleep while nothing is pending, stopped before the store closes;
 * WEBHOOK_DELIVERY_INTERVAL_MS=0: this process sends none.
 */
function runWebhooks(app: FastifyInstance, config: Config): void {
  if (config.webhooks.intervalMs <= 0) return;
  const dispatcher = app.services.webhooks.dispatcher({
    onAttempt: (outcome) => app.metrics.webhookAttempt(outcome),
    log: app.log,
  });
  const running = startDispatcher(dispatcher, {
    intervalMs: config.webhooks.intervalMs,
    notices: app.repos.webhookNotices,
    log: app.log,
  });
  app.addHook('onClose', () => running.stop());
}

/** Fastify itself: logging, body and time limits, request ids, proxies, framework errors. */
function fastifyOf(options: AppOptions) {
  const { config } = options;
  return Fastify({
    logger: options.logger === undefined ? loggerOptions(config) : withRedaction(options.logger),
    bodyLimit: config.bodyLimitBytes,
    // A body trickled one byte at a time cannot hold a connection: the whole request
    // must arrive within REQUEST_TIMEOUT_MS, checked every second, and idle sockets are closed.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    // a kept-alive connection waits this long for its next request (Fastify's default is 72 s)
    keepAliveTimeout: config.connections.keepAliveTimeoutMs,
    // Node applies these only when given to the server's constructor (assigning them later, as
    // Fastify's requestTimeout does, leaves a request whose headers arrived unbounded).
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
    },
    clientErrorHandler: clientErrorHandler(config.requestTimeoutMs),
    // a client's x-request-id only when short and plain (request-hygiene.ts)
    requestIdHeader: false,
    genReqId: requestIdOf,
    rewriteUrl,
    // request.ip, the key of every per-address limit: the client's only behind trusted proxies
    trustProxy: trustProxyOption(config.trustProxy),
    return503OnClosing: true,
    // long ids reach validation (a 400 ErrorResponse) instead of the router's bare 414
    routerOptions: { maxParamLength: 2048 },
    // a URL the router cannot even decode: still our ErrorResponse, never Fastify's raw body
    frameworkErrors: malformedUrlHandler,
  }).withTypeProvider<ZodTypeProvider>();
}

/** The whole service as one Fastify instance; `server.ts` only listens, tests `inject`. */
/** What the store has to tell an operator, in the app's log. */
function storeLog(app: FastifyInstance): StoreLog {
  return {
    warn: (m) => app.log.warn(m),
    error: (m) => app.log.error(m),
    info: (m) => app.log.info(m),
  };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = fastifyOf(options);
  limitConnections(app.server, config.connections);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.decorate('settings', config);
  // the GitHub App's client first: the services ask it for default branches
  const probot = githubProbot(config, app.log, options.octokit);

  const db = options.db ?? (await openDatabase(config.store, { log: storeLog(app) }));
  await app.register(errorsPlugin, { bodyLimitBytes: config.bodyLimitBytes });
  await app.register(securityHeadersPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(storagePlugin, {
    db,
    ownsDb: options.db === undefined,
    insertBatch: config.issueBatchMax,
    receiptCacheMax: config.receiptCacheMax,
  });
  await app.register(authPlugin);
  await app.register(metricsPlugin, { config });
  await app.register(servicesPlugin, {
    config,
    defaultBranches: probot && githubDefaultBranches(probot),
  });
  await app.register(timestampingPlugin);
  runSealer(app, config);
  runWebhooks(app, config);
  await openAdminChannel(app, config);
  await app.register(openapiPlugin);
  await app.register(unauthenticatedRoutes, { rateLimit: config.rateLimit });
  await app.register(apiV1, { prefix: API_PREFIX, rateLimit: config.rateLimit });
  await app.register(publicRoutes, { rateLimit: config.rateLimit });
  await app.register(logRoutes, {
    rateLimit: { ...config.rateLimit, max: config.logRateLimitMax },
    public: config.logPublic,
  });
  await app.register(githubAppPlugin, { config, probot });
  return app;
}

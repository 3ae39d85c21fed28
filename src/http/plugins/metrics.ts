import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { clusterMetricsReader } from '../../cluster/metrics.js';
import type { Config } from '../../config.js';
import type { Decision } from '../../contract/common.js';
import { ApiError } from '../api-error.js';
import { GuessLimit, sameSecret } from './guess-limit.js';

/** What the rest of the app reports to the metrics (no-ops when metrics are off). */
export interface Metrics {
  readonly registry: Registry;
  issued(decision: Decision): void;
  rateLimited(bucket: string): void;
  integrityFailed(use: string): void;
  /** One webhook attempt's outcome (delivered, retry, failed, gone). */
  webhookAttempt(outcome: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/**
 * Prometheus metrics (prom-client, text format 0.0.4): request counts and latency per route and
 * status, receipts issued by decision, sealer lag (entries waiting, age of the latest
 * checkpoint), store pool use, rate-limit rejections, and the process defaults (CPU, memory,
 * event-loop lag). Reachable only as configured: `GET /metrics` with `Authorization: Bearer
 * <METRICS_TOKEN>`, and/or a listener of its own on METRICS_PORT (METRICS_HOST, default
 * 127.0.0.1). Neither set: nothing is exposed (counters still run, at no cost worth measuring).
 * In a worker of a cluster (WORKERS > 1) either answers for every worker (src/cluster/metrics.ts).
 */
export default fp(
  async function metrics(app: FastifyInstance, opts: { config: Config }) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    app.decorate('metrics', domainMetrics(registry));
    countRequests(app, registry);
    app.addHook('onReady', async () => registerStoreGauges(app, registry));
    const read = clusterMetricsReader(registry, opts.config.workers) ?? (() => registry.metrics());
    exposeRoute(app, read, registry.contentType, {
      token: opts.config.metrics.token,
      rateLimit: opts.config.rateLimit,
    });
    await exposePort(app, read, registry.contentType, opts.config.metrics);
  },
  { name: 'metrics' },
);

/** Request count and latency per method, route pattern and status, counted as each answer leaves. */
function countRequests(app: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // the route pattern, never the raw URL: bounded label values
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });
}

/** The counters the rest of the app reports to (`app.metrics`). */
function domainMetrics(registry: Registry): Metrics {
  const issued = new Counter({
    name: 'receipts_issued_total',
    help: 'Receipts issued, by decision (every worker of a cluster together)',
    labelNames: ['decision'],
    registers: [registry],
  });
  const limited = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests answered 429, by limiter',
    labelNames: ['bucket'],
    registers: [registry],
  });
  const integrity = new Counter({
    name: 'receipt_integrity_failures_total',
    help: 'Stored receipts that no longer verify, refused, by what was asked of them',
    labelNames: ['use'],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, tried again), failed (no attempt left), gone (410)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    registry,
    webhookAttempt: (outcome: string) => webhooks.inc({ outcome }),
    issued: (decision: Decision) => issued.inc({ decision }),
    rateLimited: (bucket: string) => limited.inc({ bucket }),
    integrityFailed: (use: string) => integrity.inc({ use }),
  };
}

/** Sealer lag and pool use, read at scrape time. */
function registerStoreGauges(app: FastifyInstance, registry: Registry): void {
  const { anchoring } = app.services;
  new Gauge({
    name: 'log_pending_entries',
    help: 'Log entries waiting for the next seal',
    registers: [registry],
    aggregator: 'max', // the store's figure, read by each worker of a cluster
    async collect() {
      this.set(await app.repos.log.pendingCount());
    },
  });
  new Gauge({
    name: 'log_checkpoint_age_seconds',
    help: 'Age of the latest signed checkpoint (-1 before the first)',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      const latest = await anchoring.checkpoint().catch(() => undefined);
      this.set(latest ? (Date.now() - Date.parse(latest.createdAt)) / 1000 : -1);
    },
  });
  registerWebhookGauges(app, registry);
  new Gauge({
    name: 'store_pool_connections',
    help: 'Store connections by state (PostgreSQL pool; the embedded store has one)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = app.repos.health.pool();
      if (!pool) return;
      this.set({ state: 'used' }, pool.used);
      this.set({ state: 'free' }, pool.free);
      this.set({ state: 'pending' }, pool.pending);
    },
  });
}

/** Webhook deliveries waiting (due or retrying), and how long the oldest has waited. */
function registerWebhookGauges(app: FastifyInstance, registry: Registry): void {
  const read = () => app.repos.webhooks.pendingStats();
  new Gauge({
    name: 'webhook_deliveries_pending',
    help: 'Webhook deliveries not yet delivered nor given up',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.set((await read()).pending);
    },
  });
  new Gauge({
    name: 'webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest webhook delivery still pending (0 when none is)',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      const { oldest } = await read();
      this.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
    },
  });
}

type ReadMetrics = () => Promise<string>;

function exposeRoute(
  app: FastifyInstance,
  read: ReadMetrics,
  contentType: string,
  opts: { token: string | undefined; rateLimit: Config['rateLimit'] },
): void {
  const { token } = opts;
  if (!token) return;
  // wrong tokens are limited per address (as failed API keys are); the right one never is
  const guesses = new GuessLimit(opts.rateLimit.max, opts.rateLimit.windowMs);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const presented = request.headers.authorization ?? '';
    if (!sameSecret(presented, `Bearer ${token}`)) {
      const wait = guesses.retryAfter(request.ip);
      guesses.fail(request.ip);
      if (wait > 0) {
        void reply.header('retry-after', wait);
        throw new ApiError('rate_limited', 'too many wrong metrics tokens from this address');
      }
      throw new ApiError('unauthorized', 'metrics need Authorization: Bearer <METRICS_TOKEN>');
    }
    const text = await read().catch((err: unknown) => {
      request.log.warn({ err }, 'metrics unavailable');
      throw new ApiError('dependency_unavailable', 'the workers did not report their metrics');
    });
    return reply.type(contentType).send(text);
  });
}

async function exposePort(
  app: FastifyInstance,
  read: ReadMetrics,
  contentType: string,
  opts: Config['metrics'],
): Promise<void> {
  if (opts.port === undefined) return;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    read().then(
      (text) => res.writeHead(200, { 'content-type': contentType }).end(text),
      () => res.writeHead(503).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host, resolve));
  app.log.info({ port: opts.port, host: opts.host }, 'metrics listening');
  app.addHook('onClose', async () => new Promise<void>((resolve) => server.close(() => resolve())));
}

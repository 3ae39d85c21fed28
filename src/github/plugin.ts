import type { EmitterWebhookEventName } from '@octokit/webhooks';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Probot, ProbotOctokit } from 'probot';
import type { Config } from '../config.js';
import { ServiceError } from '../errors.js';
import { DEFAULT_TRUSTED_EVENTS } from '../receipts/checks/ci.js';
import { startGateSweeper } from './gate-runner.js';
import { AppOctokit } from './octokit.js';
import { createProbot, type ProbotLogger } from './probot.js';
import { receiptsApp } from './receipts-app.js';
import { registerManifestSetup } from './setup.js';
import { WEBHOOK_PATH } from './webhook-path.js';
import { forwardWebhooks } from './webhook-proxy.js';

export interface GitHubAppPluginOptions {
  config: Config;
  /** The app's Probot ({@link githubProbot}), made when `config.github` is set. */
  probot: Probot | undefined;
}

/**
 * The GitHub App's Probot when `config.github` is set. The composition root (src/app.ts) makes
 * it before the services, which ask it for default branches, and hands it to the plugin.
 * `Octokit` defaults to Probot's with retries and throttling ({@link AppOctokit}).
 */
export function githubProbot(
  config: Config,
  log: FastifyBaseLogger,
  Octokit: typeof ProbotOctokit = AppOctokit,
): Probot | undefined {
  if (!config.github) return undefined;
  const child = log.child({ component: 'github-app' }) as unknown as ProbotLogger;
  return createProbot(config.github, child, Octokit);
}

/**
 * The GitHub App (Probot) inside this Fastify process, enabled when `config.github` is set
 * (APP_ID, WEBHOOK_SECRET, PRIVATE_KEY or PRIVATE_KEY_PATH). Registered without fastify-plugin:
 * the raw-string JSON parser below stays inside this context.
 */
export default async function githubAppPlugin(
  app: FastifyInstance,
  opts: GitHubAppPluginOptions,
): Promise<void> {
  const { config, probot } = opts;
  if (!config.github || !probot) {
    offerManifestSetup(app, config);
    return;
  }
  if (config.githubSetup.webhookProxyUrl) {
    forwardWebhooks(app, config.githubSetup.webhookProxyUrl);
  }
  await loadReceiptsApp(app, config, probot, Number(config.github.appId));
  routeWebhooks(app, probot);
}

/** No app credentials: the /probot setup page (one process only) and its link in the log. */
function offerManifestSetup(app: FastifyInstance, config: Config): void {
  if (config.workers > 1) {
    // the manifest flow keeps its one-time token and GitHub's state in one process's memory
    app.log.info('GitHub App not configured: register it with WORKERS=1 (the /probot setup page)');
    return;
  }
  const token = registerManifestSetup(app, { config });
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  const local = config.publicUrl
    ? `http://localhost:${config.port}/probot?setup=${token}`
    : undefined;
  app.log.info(
    { setup: `${base}/probot?setup=${token}`, ...(local ? { beforeDnsWorks: local } : {}) },
    `GitHub App not configured: open the setup link to register it from app.yml (credentials go to ${config.githubSetup.envFile})` +
      (local
        ? '; until PUBLIC_URL resolves here, open beforeDnsWorks (GitHub still gets PUBLIC_URL)'
        : ''),
  );
}

/** The app's handlers into Probot, and the deployment-gate sweeper until the app closes. */
async function loadReceiptsApp(
  app: FastifyInstance,
  config: Config,
  probot: Probot,
  appId: number,
): Promise<void> {
  const deps = {
    appId,
    publicUrl: config.publicUrl,
    defaultTrustedEvents: config.ciTrustedEvents ?? DEFAULT_TRUSTED_EVENTS,
    receipts: app.services.receipts,
    gates: app.services.deploymentGates,
  };
  await probot.load(receiptsApp(deps));
  const stopSweeper = startGateSweeper(
    deps,
    {
      installationOctokit: (id) => probot.auth(id),
      log: probot.log.child({ name: 'deployment-gate' }),
    },
    config.githubSetup.gatePollMs,
  );
  app.addHook('onClose', stopSweeper);
}

/** `POST` WEBHOOK_PATH, its body kept as the raw string the signature covers. */
function routeWebhooks(app: FastifyInstance, probot: Probot): void {
  // The signature covers the exact bytes GitHub sent: keep the body as the raw string.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    done(null, body);
  });
  app.post(WEBHOOK_PATH, { schema: { hide: true } }, async (request, reply) => {
    await receiveWebhook(probot, request);
    return reply.status(200).send({ ok: true });
  });
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Signature first (401), then the event headers (400), then Probot's handlers. */
async function receiveWebhook(probot: Probot, request: FastifyRequest): Promise<void> {
  const payload = typeof request.body === 'string' ? request.body : '';
  const signature = header(request, 'x-hub-signature-256');
  if (!signature)
    throw new ServiceError('webhook_unauthorized', 'missing x-hub-signature-256 header');
  const valid = await probot.webhooks.verify(payload, signature).catch(() => false);
  if (!valid) {
    throw new ServiceError(
      'webhook_unauthorized',
      'x-hub-signature-256 does not match the payload',
    );
  }
  const id = header(request, 'x-github-delivery');
  const name = header(request, 'x-github-event');
  if (!id || !name) {
    throw new ServiceError(
      'webhook_invalid',
      'missing x-github-event or x-github-delivery header',
      {
        details: {
          headers: ['x-github-event', 'x-github-delivery'].filter((h) => !header(request, h)),
        },
      },
    );
  }
  assertJson(payload);
  try {
    await probot.webhooks.verifyAndReceive({
      id,
      name: name as EmitterWebhookEventName,
      signature,
      payload,
    });
  } catch (err) {
    // A handler failure is ours: the error handler logs it and answers a masked 500.
    throw new Error('webhook handler failed', { cause: err });
  }
}

function assertJson(payload: string): void {
  try {
    JSON.parse(payload);
  } catch {
    throw new ServiceError('webhook_invalid', 'the webhook payload is not valid JSON');
  }
}

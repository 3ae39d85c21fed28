import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ServiceError } from '../errors.js';
import { appManifest, envLines, mergeEnvFile } from './manifest.js';

/**
 * Probot's first run, inside this service: with no app credentials, `/probot` registers the app
 * from `app.yml` through GitHub's manifest flow and writes the credentials to `.env` (restart to
 * use them). Unlike Probot's dev server, the page needs the one-time token printed in the log at
 * start-up, and GitHub's `state` round-trips it, so nobody else who can reach the server can
 * register their own app into this one's `.env`.
 */
export interface SetupOptions {
  config: Config;
  /** The Octokit class for the code exchange (tests inject one). */
  octokit?: typeof Octokit;
}

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function webBase(config: Config): string {
  const { gheHost, gheProtocol, org } = config.githubSetup;
  const host = `${gheProtocol ?? 'https'}://${gheHost ?? 'github.com'}`;
  return `${host}${org ? `/organizations/${encodeURIComponent(org)}` : ''}/settings/apps/new`;
}

function apiBase(config: Config): string | undefined {
  const { gheHost, gheProtocol } = config.githubSetup;
  return gheHost ? `${gheProtocol ?? 'https'}://${gheHost}/api/v3` : undefined;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A host GitHub cannot send webhooks to: this machine, or a private or link-local network. */
function unreachableFromGitHub(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.)/.test(host) ||
    host === '::1' ||
    /^f[cd][0-9a-f]{2}:/i.test(host) ||
    /^fe80:/i.test(host)
  );
}

/** Where GitHub will deliver webhooks, and what to do when it cannot reach that address. */
function webhookSection(webhookUrl: string, proxied: boolean): string {
  const url = `<code>${escapeHtml(webhookUrl)}</code>`;
  if (proxied) {
    return `<p>GitHub will deliver webhooks to ${url}, the <code>WEBHOOK_PROXY_URL</code> channel; this
service reads them from there, so it needs no public address.</p>`;
  }
  if (!unreachableFromGitHub(webhookUrl)) {
    return `<p>GitHub will deliver webhooks to ${url}.</p>`;
  }
  return `<div class="verdict caution" role="alert"><p><strong>GitHub cannot reach ${url}.</strong>
It sends webhooks from the internet, and this address is on this machine or a private network, so
the app would register but never hear of a workflow run.</p>
<p>Before registering, either set <code>PUBLIC_URL</code> to the address the internet reaches this
service at (for example <code>https://receipts.example.com</code>), or set
<code>WEBHOOK_PROXY_URL</code> to a smee.io channel: a public relay that receives GitHub's webhooks
and hands them to this service over a connection the service opens itself (get one at
<a href="https://smee.io/new">smee.io/new</a>). Then restart the service and open the new setup link
from its log.</p></div>`;
}

function setupPage(
  action: string,
  manifest: Record<string, unknown>,
  proxied: boolean,
  envFile: string,
): string {
  const hooks = (manifest.hook_attributes ?? {}) as { url?: string };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Register the GitHub App</title><link rel="stylesheet" href="/verify/app.css"></head>
<body><main><header><h1>Register the Verification Receipts GitHub App</h1>
<p class="lead">GitHub will create the app from this service's <code>app.yml</code> and send you back
here; the credentials are then written to <code>${escapeHtml(envFile)}</code> (or, if it cannot be
written, shown for you to copy). Restart the service afterwards.</p></header>
<section aria-labelledby="webhooks"><h2 id="webhooks">Webhooks</h2>
${webhookSection(hooks.url ?? '', proxied)}</section>
<form action="${escapeHtml(action)}" method="post">
<input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}">
<button type="submit">Register on GitHub</button></form>
<footer>The app's name, permissions and events are those of <code>app.yml</code>; GitHub shows them
before you confirm.</footer></main></body></html>`;
}

/** Setup pages opened but not yet come back from GitHub that are still honoured. */
const MAX_PENDING_STATES = 32;

/** GitHub's exchange of a manifest code for the new app's credentials. */
async function convertManifest(config: Config, code: string, OctokitClass: typeof Octokit) {
  const quiet = () => undefined;
  const log = { debug: quiet, info: quiet, warn: quiet, error: quiet }; // the error is ours
  const baseUrl = apiBase(config);
  const octokit = new OctokitClass({ log, ...(baseUrl ? { baseUrl } : {}) });
  try {
    return (await octokit.request('POST /app-manifests/{code}/conversions', { code })).data;
  } catch (err) {
    throw new ServiceError('setup_failed', 'GitHub did not convert the manifest code', {
      cause: err,
    });
  }
}

/** The page's own CSP (src/http/plugins/security-headers.ts compiles it): it posts to GitHub. */
function setupPageCsp(config: Config) {
  return {
    defaultSrc: ["'none'"],
    styleSrc: ["'self'"],
    formAction: [new URL(webBase(config)).origin],
    frameAncestors: ["'none'"],
  };
}

/** `GET /probot`: the registration page, for the holder of the start-up token only. */
function registerSetupPage(
  app: FastifyInstance,
  config: Config,
  token: string,
  states: Set<string>,
): void {
  const baseUrl = (request: FastifyRequest) =>
    config.publicUrl ?? `${request.protocol}://${request.host}`;
  app.get(
    '/probot',
    { schema: { hide: true }, config: { csp: setupPageCsp(config) } as object },
    async (request, reply) => {
      // `setup`, not `token`: credential-like query names are redacted before routing
      const given = (request.query as { setup?: unknown }).setup;
      if (typeof given !== 'string' || !same(given, token)) {
        throw new ServiceError(
          'setup_forbidden',
          'open the /probot link printed in the service log',
        );
      }
      const state = randomBytes(18).toString('base64url');
      // only the token's holder adds states; still, keep the newest few, not every page view
      if (states.size >= MAX_PENDING_STATES) states.delete(states.values().next().value as string);
      states.add(state);
      const manifest = appManifest({
        baseUrl: baseUrl(request),
        webhookProxyUrl: config.githubSetup.webhookProxyUrl,
      });
      const action = `${webBase(config)}?state=${state}`;
      return reply
        .type('text/html; charset=utf-8')
        .send(
          setupPage(
            action,
            manifest,
            config.githubSetup.webhookProxyUrl !== undefined,
            config.githubSetup.envFile,
          ),
        );
    },
  );
}

/** `GET /probot/setup`: GitHub's redirect back, one use per state the page handed out. */
function registerSetupCallback(
  app: FastifyInstance,
  options: SetupOptions,
  states: Set<string>,
): void {
  const { config } = options;
  app.get('/probot/setup', { schema: { hide: true } }, async (request, reply) => {
    const { code, state } = request.query as { code?: unknown; state?: unknown };
    if (typeof state !== 'string' || !states.delete(state) || typeof code !== 'string' || !code) {
      throw new ServiceError(
        'setup_forbidden',
        'unknown or used setup state; start again at /probot',
      );
    }
    const data = await convertManifest(config, code, options.octokit ?? Octokit);
    const values = {
      APP_ID: String(data.id),
      PRIVATE_KEY: data.pem,
      WEBHOOK_SECRET: data.webhook_secret ?? '',
      GITHUB_CLIENT_ID: data.client_id,
      GITHUB_CLIENT_SECRET: data.client_secret,
    };
    const file = config.githubSetup.envFile;
    const install = `${data.html_url}/installations/new`;
    try {
      mergeEnvFile(file, values);
    } catch (err) {
      // GitHub hands the private key out once: show it to the page's holder rather than lose it
      const reason = (err as NodeJS.ErrnoException).code ?? 'write failed';
      request.log.error(
        { appId: data.id, reason },
        `GitHub App registered, but ${file} cannot be written: the setup page shows what to copy`,
      );
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(copyPage(file, reason, envLines(values), install));
    }
    request.log.warn(
      { appId: data.id },
      `GitHub App registered; credentials written to ${file}: restart the service`,
    );
    return reply.redirect(install, 302);
  });
}

/** The credentials to copy by hand, when the service cannot write them where it was told to. */
function copyPage(file: string, reason: string, lines: string[], install: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Copy the GitHub App's credentials</title><link rel="stylesheet" href="/verify/app.css"></head>
<body><main><header><h1>The app is registered: copy its credentials now</h1>
<p class="lead">This service could not write them to <code>${escapeHtml(file)}</code>
(${escapeHtml(reason)}), and GitHub shows the private key only once. Put the lines below in that
file (mode 0600, readable by the service's user) or in the service's environment, or set
<code>ENV_FILE</code> to a file the service can write and register again. Then restart the
service.</p></header>
<pre>${escapeHtml(lines.join('\n'))}</pre>
<p><a href="${escapeHtml(install)}">Then install the app on your repositories</a>.</p>
</main></body></html>`;
}

/** Both setup routes; returns the one-time token the page asks for (printed in the log). */
export function registerManifestSetup(app: FastifyInstance, options: SetupOptions): string {
  const token = randomBytes(18).toString('base64url');
  const states = new Set<string>();
  registerSetupPage(app, options.config, token, states);
  registerSetupCallback(app, options, states);
  return token;
}

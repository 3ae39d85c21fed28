import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { escapeHtml } from '../html.js';

/**
 * GET /: what this service is and where to go, for a person in a browser (HTML) or a program
 * (`Accept: application/json`, a JSON index). The same links end the start-up summary on a
 * terminal (src/server.ts). Nothing here is secret: the GitHub App's one-time setup link stays
 * in the service log, the page only says where to find it.
 */

export interface ServiceLink {
  rel: string;
  href: string;
  title: string;
}

/** The service's public entry points, relative to its base URL. */
export function serviceLinks(config: Config): ServiceLink[] {
  const logKey = config.logPublic ? '' : ' (LOG_PUBLIC=false: needs a read-scoped API key)';
  return [
    { rel: 'verify-page', href: '/verify', title: 'Verify a receipt in your browser (no account)' },
    { rel: 'docs', href: '/docs', title: 'The API, with Swagger UI' },
    { rel: 'openapi', href: '/openapi.json', title: 'The OpenAPI 3.0.3 document' },
    { rel: 'jwks', href: '/.well-known/jwks.json', title: 'The keys receipts are signed with' },
    {
      rel: 'log-checkpoint',
      href: '/log/checkpoint',
      title: `The receipt log's latest signed checkpoint${logKey}`,
    },
    {
      rel: 'log-policy',
      href: '/log/policy',
      title: "The log's policy: its key and witnesses, for the verifier's --log-policy",
    },
  ];
}

/** The GitHub App's state in one sentence; never the one-time setup token itself. */
export function githubAppState(config: Config): { configured: boolean; setup?: string } {
  if (config.github) return { configured: true };
  return {
    configured: false,
    setup:
      config.workers > 1
        ? 'Not configured. Start the service once with WORKERS=1 to register it at /probot.'
        : 'Not configured. Open the /probot setup link printed in the service log at start-up (it carries a one-time token) to register it from app.yml.',
  };
}

/** The same links for a person on a terminal: the end of the start-up summary. */
export function landingLines(config: Config, url: string): string[] {
  const links = serviceLinks(config);
  const width = Math.max(...links.map((l) => l.href.length)) + url.length + 2;
  return [
    `  open       ${url}/ (these links, as a page)`,
    ...links.map((l) => `             ${`${url}${l.href}`.padEnd(width)}${l.title}`),
  ];
}

const DESCRIPTION =
  'Issues Ed25519-signed, canonical receipts of verification checks (ALLOW, FLAG or BLOCK), ' +
  'keeps them in an append-only Merkle log, and lets anyone check a receipt without an account.';

function page(config: Config): string {
  const links = serviceLinks(config)
    .map(
      (l) =>
        `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.href)}</a>: ${escapeHtml(l.title)}</li>`,
    )
    .join('\n          ');
  const app = githubAppState(config);
  const github = app.configured
    ? 'The GitHub App is configured: workflow runs become receipts and check runs.'
    : `GitHub App: ${escapeHtml(app.setup ?? '')}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Verification receipt service</title>
    <link rel="stylesheet" href="/verify/app.css" />
  </head>
  <body>
    <main>
      <header>
        <h1>Verification receipt service</h1>
        <p class="lead">${escapeHtml(DESCRIPTION)}</p>
      </header>
      <section aria-labelledby="check">
        <h2 id="check">Check a receipt</h2>
        <p><a href="/verify">Open the verify page</a> and drop a PDF receipt or a bundle: your browser checks it, nothing is uploaded.</p>
      </section>
      <section aria-labelledby="links">
        <h2 id="links">Where things are</h2>
        <ul class="links">
          ${links}
          <li><code>/status/{receiptHash}</code>: a receipt's signed current status (no key)</li>
        </ul>
      </section>
      <section aria-labelledby="github">
        <h2 id="github">GitHub App</h2>
        <p>${github}</p>
      </section>
      <footer>It records verification signals. It is not a legal determination, a fraud guarantee or a compliance certification.</footer>
    </main>
  </body>
</html>
`;
}

/** JSON only when the client asks for it before HTML (a browser asks for text/html first). */
function wantsJson(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '').slice(0, 1024);
  const json = accept.search(/application\/(json|\*)|\*\/\*/);
  const html = accept.search(/text\/html/);
  return accept.includes('application/json') && (html < 0 || json < html);
}

/** The page loads its style from this service and nothing else: no script, no form. */
const LANDING_CSP = {
  defaultSrc: ["'none'"],
  styleSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

export default async function landingRoutes(app: FastifyInstance) {
  const config = app.services.config;
  const html = page(config);
  const index = {
    service: 'verification-receipt-service',
    description: DESCRIPTION,
    links: serviceLinks(config),
    status: '/status/{receiptHash}',
    githubApp: githubAppState(config),
  };
  app.get('/', { config: { csp: LANDING_CSP }, schema: { hide: true } }, async (request, reply) => {
    void reply.header('vary', 'accept').header('cache-control', 'no-cache');
    if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send(index);
    return reply.type('text/html; charset=utf-8').send(html);
  });
}

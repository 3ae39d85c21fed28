import fs from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { verifyCommand } from '../../contract/links.js';
import { pemOf } from '../../pdf/sign/index.js';
import { ApiError } from '../api-error.js';
import { escapeHtml } from '../html.js';

/** Where `npm run build` puts the page (scripts/build-verify-page.mjs); same from src and dist. */
const PUBLIC_DIR = new URL('../../../dist/public/', import.meta.url);

/**
 * The page may load its own script and style, fetch this service (the status it is asked for),
 * and nothing else: no inline script, no other origin, no frame, no form.
 */
export const VERIFY_PAGE_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  connectSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

function read(name: string): string | undefined {
  try {
    return fs.readFileSync(new URL(name, PUBLIC_DIR), 'utf8');
  } catch {
    return undefined;
  }
}

const config = { csp: VERIFY_PAGE_CSP };

/**
 * GET /verify: the browser verifier (no key). The service's trusted keys, its log's identity
 * (origin and note verifier key, as GET /log/vkey serves it) and the certificates of the
 * time-stamp authorities it checks tokens against (TSA_CERT_FILES) are written into the page, so
 * it verifies against a trust root fixed at load time and works offline from then on.
 */
export default async function verifyPageRoutes(app: FastifyInstance) {
  const html = read('verify.html');
  const assets: Record<string, [string | undefined, string]> = {
    'app.js': [read('verify.js'), 'text/javascript; charset=utf-8'],
    'app.css': [read('verify.css'), 'text/css; charset=utf-8'],
  };
  const notBuilt = () =>
    new ApiError('dependency_unavailable', 'the verify page is not built: run npm run build');

  app.get('/verify', { config, schema: { hide: true } }, async (_request, reply: FastifyReply) => {
    if (!html) throw notBuilt();
    const ring = await app.services.keyRing.current();
    const { origin, verifierKey } = app.services.anchoring;
    const tsa = app.services.timestamping?.certificates ?? [];
    const root = {
      keys: ring.publicJwks,
      ...(verifierKey ? { log: { origin, verifierKey } } : {}),
      ...(tsa.length > 0 ? { tsaCertificates: tsa.map((der) => pemOf(der)) } : {}),
    };
    // JSON inside a non-executed <script> block: '<' escaped so no '</script>' can close it
    const trust = JSON.stringify(root).replaceAll('<', '\\u003c');
    const command = escapeHtml(verifyCommand('FILE', app.settings.serviceUrl));
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(
        // functions: no `$&` patterns from the JSON or the URL
        html.replace('__TRUST_ROOT__', () => trust).replace('__VERIFY_COMMAND__', () => command),
      );
  });

  for (const [name, [body, type]] of Object.entries(assets)) {
    app.get(`/verify/${name}`, { config, schema: { hide: true } }, async (_req, reply) => {
      if (!body) throw notBuilt();
      return reply.type(type).header('cache-control', 'public, max-age=300').send(body);
    });
  }

  // browsers ask for it on every page: an empty answer, not a 404 in their console
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.code(204).header('cache-control', 'public, max-age=86400').send(),
  );
}

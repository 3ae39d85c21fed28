import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** Swagger UI's routes: the only HTML this service serves. */
export const DOCS_PREFIX = '/docs';

/**
 * Everything else is JSON or a PDF: nothing may load, run, frame or submit anything. A browser
 * that opens a response directly gets a document that can do nothing but be displayed.
 */
export const API_CSP_DIRECTIVES: CspDirectives = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

/**
 * Swagger UI (all of its scripts are files under /docs/static, none inline): same-origin scripts,
 * styles (it sets inline styles), images (its logo is a data: URI) and fetches (the OpenAPI
 * document, "Try it out"), never framed. No upgrade-insecure-requests: that would break /docs on
 * a plain-http deployment such as localhost.
 */
export const DOCS_CSP_DIRECTIVES: CspDirectives = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
};

const isDocsRoute = (url: string) => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: API_CSP_DIRECTIVES },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true, preload: false },
  xContentTypeOptions: true,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  // COEP would only constrain what a page embeds; these responses embed nothing cross-origin.
  crossOriginEmbedderPolicy: false,
  xPermittedCrossDomainPolicies: { permittedPolicies: 'none' },
  xDnsPrefetchControl: { allow: false },
  // X-Powered-By: helmet removes it (Node never sets it: there is nothing to remove)
};

/** The headers helmet sets for these options: they depend on nothing in the request. */
interface HeaderSet {
  set: ReadonlyArray<readonly [string, string]>;
  remove: readonly string[];
}

/**
 * Runs helmet's middleware once against a recording response. Helmet builds its middleware
 * (and parses the CSP directives) on each call; @fastify/helmet called it on every request,
 * which was 2.7% of the service's CPU under load (bench/README.md). The headers are static.
 */
export function helmetHeaders(options: HelmetOptions): HeaderSet {
  const set: Array<readonly [string, string]> = [];
  const remove: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: (name: string) => remove.push(name),
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return { set, remove };
}

function apply(raw: ServerResponse, headers: HeaderSet): void {
  for (const name of headers.remove) raw.removeHeader(name);
  for (const [name, value] of headers.set) raw.setHeader(name, value);
}

/** CSP directives in helmet's form (`defaultSrc: ["'none'"]`, ...). */
export type CspDirectives = Record<string, string[]>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's own CSP directives, instead of the API's (Swagger UI's routes get theirs). */
    csp?: CspDirectives;
    /** The headers compiled from `csp` when the route was declared (set by this plugin). */
    securityHeaders?: HeaderSet;
  }
}

/**
 * Security headers on every response (routes, 404s and errors included), as helmet makes them:
 * HSTS (a year, subdomains), `nosniff`, `X-Frame-Options: DENY` plus CSP `frame-ancestors
 * 'none'`, `Referrer-Policy: no-referrer`, same-origin Cross-Origin-Resource/Opener-Policy, no
 * X-Powered-By. Register it before any route so that its hook and the /docs CSP apply to all.
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const api = helmetHeaders(OPTIONS);
    const compiled = new Map<CspDirectives, HeaderSet>();
    const withCsp = (directives: CspDirectives) => {
      let headers = compiled.get(directives);
      if (!headers) {
        const contentSecurityPolicy = { useDefaults: false, directives };
        headers = helmetHeaders({ ...OPTIONS, contentSecurityPolicy });
        compiled.set(directives, headers);
      }
      return headers;
    };
    // Routes are added after this plugin: compile a route's own CSP as it is declared.
    app.addHook('onRoute', (route: RouteOptions) => {
      const config = route.config as { csp?: CspDirectives } | undefined;
      const directives = config?.csp ?? (isDocsRoute(route.url) ? DOCS_CSP_DIRECTIVES : undefined);
      if (directives) route.config = { ...route.config, securityHeaders: withCsp(directives) };
    });
    app.addHook('onRequest', (request, reply, done) => {
      apply(reply.raw, request.routeOptions.config.securityHeaders ?? api);
      done();
    });
  },
  { name: 'security-headers' },
);

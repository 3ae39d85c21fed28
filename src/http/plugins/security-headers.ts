import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

/** Swagger UI's routes: the only HTML this service serves. */
export const DOCS_PREFIX = '/docs';

/**
 * Everything else is JSON or a PDF: nothing may load, run, frame or submit anything. A browser
 * that opens a response directly gets a document that can do nothing but be displayed.
 */
export const API_CSP_DIRECTIVES = {
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
export const DOCS_CSP_DIRECTIVES = {
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

/**
 * Security headers on every response (routes, 404s and errors included) via @fastify/helmet:
 * HSTS (a year, subdomains), `nosniff`, `X-Frame-Options: DENY` plus CSP `frame-ancestors
 * 'none'`, `Referrer-Policy: no-referrer`, same-origin Cross-Origin-Resource/Opener-Policy, no
 * X-Powered-By. Register it before any route so that its hooks and the /docs CSP apply to all.
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    // Routes are added after this plugin: give Swagger UI's its own CSP as they are declared.
    app.addHook('onRoute', (route: RouteOptions) => {
      if (isDocsRoute(route.url)) {
        route.config = {
          ...route.config,
          helmet: {
            contentSecurityPolicy: { useDefaults: false, directives: DOCS_CSP_DIRECTIVES },
          },
        } as RouteOptions['config'];
      }
    });

    const options: FastifyHelmetOptions = {
      global: true,
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
      hidePoweredBy: true,
    };
    await app.register(helmet, options);
  },
  { name: 'security-headers' },
);

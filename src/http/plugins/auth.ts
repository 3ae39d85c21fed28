import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Scope } from '../../auth/scopes.js';
import type { Principal } from '../../auth/ports.js';
import { ApiError } from '../api-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope an API key needs for this route. Routes under /api/v1 must declare one. */
    scope?: Scope;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * `app.authenticate` is an onRequest hook: it runs before body parsing and validation, so a
 * request without a valid key gets 401 and one without the route's scope gets 403 whatever its
 * body says. A route that forgot to declare a scope is closed to everyone (fail closed).
 */
export default fp(
  async function auth(app: FastifyInstance) {
    app.decorateRequest('principal', null);
    app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
      const token = request.headers['x-api-key'];
      if (typeof token !== 'string' || token.length === 0) {
        throw new ApiError('unauthorized', 'missing x-api-key header');
      }
      const principal = await app.repos.apiKeys.authenticate(token);
      if (!principal) throw new ApiError('unauthorized', 'invalid or revoked API key');
      // known before the scope check: a key's refused requests count against its own limit
      request.principal = principal;
      requireScope(request.routeOptions.config.scope, principal);
    });
  },
  { name: 'auth', dependencies: ['storage'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

/**
 * The route's scope must be one the key holds. A route that declares no scope is closed to every
 * key, whatever scopes it holds (fail closed): forgetting `config.scope` can never open a route.
 */
export function requireScope(scope: Scope | undefined, principal: Principal): void {
  if (!scope || !principal.scopes.has(scope)) {
    throw new ApiError('forbidden', `this API key lacks the '${scope ?? 'unknown'}' scope`);
  }
}

/** The authenticated principal of a route behind `app.authenticate`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError('unauthorized', 'not authenticated');
  return request.principal;
}

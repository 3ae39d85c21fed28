import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { ENDPOINTS } from './hostile/requests.js';

/**
 * The hostile-input suites and the OpenAPI document cover every route the app registers: the
 * lists are checked against the app itself, so a new route cannot silently escape them.
 */

/** Registered routes the hostile suites leave out, each for a reason. */
const NOT_HOSTILE: Record<string, string> = {
  'GET /docs': 'Swagger UI (static files of @fastify/swagger-ui)',
  'GET /docs/': 'Swagger UI',
  'GET /docs/static/index.html': 'Swagger UI',
  'GET /docs/static/swagger-initializer.js': 'Swagger UI',
  'GET /docs/*': 'Swagger UI',
  'GET /docs/json': 'Swagger UI',
  'GET /docs/yaml': 'Swagger UI',
  'GET /openapi.json': 'a constant document',
  'GET /verify': 'a static page (tested in Chromium: test/verifier/page.test.ts)',
  'GET /verify/app.js': 'a static file',
  'GET /verify/app.css': 'a static file',
  'GET /favicon.ico': 'an empty answer',
  'GET /': 'the landing page, the same for every request (test/http/landing.test.ts)',
  'GET /probot': 'GitHub App setup, behind a one-time token (test/github/setup.test.ts)',
  'GET /probot/setup': 'GitHub App setup, behind single-use state (test/github/setup.test.ts)',
};

/** Routes of Fastify's printRoutes tree, as `METHOD /full/path` (HEAD left out). */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?) \(([A-Z, ]+)\)$/u.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${m[2] ?? ''}`;
    stack.push(m[2] === '/' && depth > 0 ? '/' : (m[2] ?? ''));
    for (const method of (m[3] ?? '').split(', ')) {
      if (method !== 'HEAD') routes.push(`${method} ${path.replace(/\/\/+/g, '/')}`);
    }
  }
  return [...new Set(routes)].sort();
}

describe('route coverage', () => {
  it('every registered route is in the hostile list or excluded with a reason', ({ ctx }) => {
    // printRoutes shows a wildcard route as a bare `*` (under `/` once `/` is a route): name it
    // after checking it is the log's
    expect(ctx.app.hasRoute({ method: 'GET', url: '/log/tile/*' })).toBe(true);
    const registered = registeredRoutes(ctx.app.printRoutes({ commonPrefix: false }))
      .map((route) => (route === 'GET *' || route === 'GET /*' ? 'GET /log/tile/*' : route))
      .sort();
    expect(registered.length).toBeGreaterThan(20);
    const hostile = ENDPOINTS.map((e) => `${e.method} ${e.route}`).sort();
    const expected = [...hostile, ...Object.keys(NOT_HOSTILE)].sort();
    expect(registered).toEqual(expected);
  });

  it('the OpenAPI document has exactly the hostile list, one operation per endpoint', async ({
    ctx,
  }) => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      )
      .sort();
    const documentable = ENDPOINTS.filter((e) => e.undocumented === undefined);
    expect(documented).toEqual(documentable.map((e) => `${e.method} ${e.route}`).sort());
  });
});

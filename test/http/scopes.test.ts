import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/ports.js';
import { SCOPES, type Scope } from '../../src/auth/scopes.js';
import { ApiError } from '../../src/http/api-error.js';
import { requireScope } from '../../src/http/plugins/auth.js';
import { createTestContext } from '../helpers/context.js';

const principal = (scopes: Scope[]): Principal => ({
  keyId: 'k',
  tenant: 't',
  scopes: new Set(scopes),
});

describe('route scopes', () => {
  it('a route without a declared scope is closed to a key holding every scope', () => {
    expect(() => requireScope(undefined, principal([...SCOPES]))).toThrow(ApiError);
    try {
      requireScope(undefined, principal([...SCOPES]));
    } catch (err) {
      expect((err as ApiError).code).toBe('forbidden');
    }
  });

  it('a declared scope opens the route only to keys that hold it', () => {
    expect(() => requireScope('read', principal(['read']))).not.toThrow();
    expect(() => requireScope('read', principal(['verify', 'anchor', 'revoke']))).toThrow(ApiError);
  });

  it('every /api/v1 route of the app declares a scope (none relies on the closed default)', async () => {
    const ctx = await createTestContext();
    try {
      const key = await ctx.apiKey([...SCOPES]);
      const doc = (await ctx.app.inject({ url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const [route, ops] of Object.entries(doc.paths)) {
        if (!route.startsWith('/api/v1/')) continue;
        for (const method of Object.keys(ops)) {
          const url = route
            .replace('{receiptId}', '00000000-0000-4000-8000-000000000000')
            .concat(route.includes('consistency') ? '?from=1&to=1' : '');
          const res = await ctx.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: { 'x-api-key': key },
          });
          expect(res.statusCode, `${method} ${route}: ${res.body}`).not.toBe(403);
        }
      }
    } finally {
      await ctx.close();
    }
  });
});

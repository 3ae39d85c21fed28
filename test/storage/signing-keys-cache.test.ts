import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

/**
 * The signing keys and endorsements are held in memory: the JWKS and every signature check cost
 * no store query, and a change (here made by hand in SQL, as another process would) reaches the
 * copy through the change feed within a second.
 */
let ctx: TestContext;
let queries: string[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  ctx.db.knex.on('query', (q: { sql: string }) => queries.push(q.sql));
});
afterAll(async () => ctx.close());

const keyQueries = () => queries.filter((sql) => /signing_key/.test(sql));

describe('the signing keys in memory', () => {
  it('serve the JWKS again and again without a store query', async () => {
    expect((await ctx.app.inject({ url: '/.well-known/jwks.json' })).statusCode).toBe(200);
    queries = [];
    for (let i = 0; i < 5; i += 1) {
      expect((await ctx.app.inject({ url: '/.well-known/jwks.json' })).statusCode).toBe(200);
    }
    expect(keyQueries()).toEqual([]);
  });

  it('see a key retired by hand in the store within a second', async () => {
    const [before] = await ctx.repos.signingKeys.list();
    expect(before?.retiredAt).toBeNull();
    await ctx.db.knex('signing_keys').update({ retired_at: ctx.db.knex.fn.now() });
    await vi.waitFor(
      async () => expect((await ctx.repos.signingKeys.list())[0]?.retiredAt).not.toBeNull(),
      { timeout: 1_000, interval: 20 },
    );
  });
});

import { describe, expect } from 'vitest';
import { type TestContext } from '../helpers/context.js';
import { it } from '../helpers/fixtures.js';

/** Single use of OIDC tokens in the store: the first use wins, a retry is not a replay. */
const use = (change: Partial<Parameters<TestContext['repos']['tokenUses']['claim']>[0]> = {}) => ({
  issuer: 'https://issuer.test',
  jti: 'jti-1',
  tenant: 'tenant-a',
  externalId: 'acme/widgets/1/1',
  expiresAt: new Date(Date.now() + 300_000),
  ...change,
});

describe('oidc_token_uses', () => {
  it('first, then repeat for the same tenant and externalId, replayed for anything else', async ({
    ctx,
  }) => {
    const { tokenUses } = ctx.repos;
    expect(await tokenUses.claim(use())).toBe('first');
    expect(await tokenUses.claim(use())).toBe('repeat');
    expect(await tokenUses.claim(use({ externalId: 'other' }))).toBe('replayed');
    expect(await tokenUses.claim(use({ tenant: 'tenant-b' }))).toBe('replayed');
    expect(await tokenUses.claim(use({ issuer: 'https://other.test' }))).toBe('first');
  });

  it('concurrent first uses of one token: exactly one wins', async ({ ctx }) => {
    const tenants = Array.from({ length: 8 }, (_, i) => `tenant-${i}`);
    const results = await Promise.all(
      tenants.map((tenant) => ctx.repos.tokenUses.claim(use({ jti: 'jti-race', tenant }))),
    );
    expect(results.filter((r) => r === 'first')).toHaveLength(1);
  });

  it('an expired use is swept when new uses arrive', async ({ ctx }) => {
    await ctx.repos.tokenUses.claim(use({ jti: 'jti-old', expiresAt: new Date(Date.now() - 1) }));
    await ctx.repos.tokenUses.claim(use({ jti: 'jti-new' }));
    const rows = await ctx.db.knex('oidc_token_uses').where({ jti: 'jti-old' });
    expect(rows).toHaveLength(0);
  });
});

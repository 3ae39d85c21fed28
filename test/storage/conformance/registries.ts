import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NotaryRecord } from '../../../src/receipts/types.js';
import type { Contract } from './harness.js';
import { unique } from './harness.js';

/** ApiKeyAdminStore (src/storage/ports.ts): authentication and the `keys` commands. */
export const apiKeyStoreContract: Contract = (stores) => {
  it('authenticates a created key as its tenant and scopes, and lists it', async () => {
    const tenant = unique('tenant');
    const { record, token } = await stores().apiKeys.create({
      tenant,
      name: 'ci',
      scopes: ['verify', 'read'],
    });
    expect(record).toMatchObject({
      tenant,
      name: 'ci',
      scopes: ['verify', 'read'],
      revokedAt: null,
    });
    const principal = await stores().apiKeys.authenticate(token);
    expect(principal).toEqual({ keyId: record.id, tenant, scopes: new Set(['verify', 'read']) });
    const listed = (await stores().apiKeys.list()).find((k) => k.id === record.id);
    expect(listed).toEqual(record);
  });

  it('authenticates nothing for a malformed token, an unknown key or a wrong secret', async () => {
    const { token } = await stores().apiKeys.create({ tenant: unique('t'), name: 'x', scopes: [] });
    expect(await stores().apiKeys.authenticate('not a token')).toBeUndefined();
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(await stores().apiKeys.authenticate(`${token.slice(0, -1)}${last}`)).toBeUndefined();
    const other = await stores().apiKeys.create({ tenant: unique('t'), name: 'y', scopes: [] });
    await stores().apiKeys.revoke(other.record.id);
    expect(await stores().apiKeys.authenticate(other.token)).toBeUndefined();
  });

  it('revokes a key at once and once; it stays listed as revoked', async () => {
    const { record, token } = await stores().apiKeys.create({
      tenant: unique('tenant'),
      name: 'old',
      scopes: ['read'],
    });
    expect(await stores().apiKeys.authenticate(token)).toBeDefined();
    expect(await stores().apiKeys.revoke(record.id)).toBe(true);
    expect(await stores().apiKeys.authenticate(token)).toBeUndefined();
    expect(await stores().apiKeys.revoke(record.id)).toBe(false);
    expect(await stores().apiKeys.revoke(randomUUID())).toBe(false);
    const listed = (await stores().apiKeys.list()).find((k) => k.id === record.id);
    expect(listed?.revokedAt).toBeInstanceOf(Date);
  });

  it('lists keys oldest first', async () => {
    const tenant = unique('tenant');
    const a = await stores().apiKeys.create({ tenant, name: 'a', scopes: [] });
    const b = await stores().apiKeys.create({ tenant, name: 'b', scopes: [] });
    const ids = (await stores().apiKeys.list()).map((k) => k.id);
    expect(ids.indexOf(a.record.id)).toBeLessThan(ids.indexOf(b.record.id));
  });
};

/** RevokerAdminStore (src/storage/ports.ts): who may revoke, and the `issuers` commands. */
export const revokerStoreContract: Contract = (stores) => {
  it('adds, finds, replaces the key within the tenant, and removes an issuer', async () => {
    const tenant = unique('tenant');
    const issuerId = unique('issuer');
    expect(await stores().issuers.add({ issuerId, tenant, publicKey: 'key-1' })).toBe('added');
    expect(await stores().issuers.find(issuerId)).toMatchObject({
      issuerId,
      tenant,
      publicKey: 'key-1',
    });
    expect(await stores().issuers.add({ issuerId, tenant, publicKey: 'key-2' })).toBe('added');
    expect((await stores().issuers.find(issuerId))?.publicKey).toBe('key-2');
    expect(await stores().issuers.remove(issuerId)).toBe(true);
    expect(await stores().issuers.find(issuerId)).toBeUndefined();
    expect(await stores().issuers.remove(issuerId)).toBe(false);
  });

  it("never moves an issuer to another tenant: 'other_tenant', the first registration kept", async () => {
    const tenant = unique('tenant');
    const issuerId = unique('issuer');
    await stores().issuers.add({ issuerId, tenant, publicKey: 'key-1' });
    const moved = await stores().issuers.add({ issuerId, tenant: unique('other'), publicKey: 'x' });
    expect(moved).toBe('other_tenant');
    expect(await stores().issuers.find(issuerId)).toMatchObject({ tenant, publicKey: 'key-1' });
  });

  it("lists a tenant's issuers by id, and every tenant's by tenant then id", async () => {
    const [t1, t2] = [unique('a-tenant'), unique('b-tenant')];
    for (const [tenant, issuerId] of [
      [t2, 'z'],
      [t1, 'y'],
      [t1, 'x'],
    ] as const) {
      await stores().issuers.add({ issuerId: `${tenant}-${issuerId}`, tenant, publicKey: 'k' });
    }
    expect((await stores().issuers.list(t1)).map((i) => i.issuerId)).toEqual([
      `${t1}-x`,
      `${t1}-y`,
    ]);
    const all = (await stores().issuers.list()).map((i) => i.issuerId);
    expect(all.filter((id) => id.startsWith(t1) || id.startsWith(t2))).toEqual(
      [`${t1}-x`, `${t1}-y`, `${t2}-z`].sort((a, b) => (a < b ? -1 : 1)),
    );
  });
};

const notary = (tenant: string, notaryId: string, change: Partial<NotaryRecord> = {}) => ({
  tenant,
  notaryId,
  displayName: 'Ada Notary',
  commissionState: 'TX',
  commissionExpires: '2030-12-31',
  publicKeyPem: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n',
  ...change,
});

/** NotaryAdminStore (src/storage/ports.ts): issuance's notary lookups and `notaries` commands. */
export const notaryStoreContract: Contract = (stores) => {
  it('reads a notary back exactly, its commission date as YYYY-MM-DD, within its tenant only', async () => {
    const tenant = unique('tenant');
    const record = notary(tenant, 'n-1');
    await stores().notaries.upsert(record);
    expect(await stores().notaries.find(tenant, 'n-1')).toEqual(record);
  });

  it('keeps a registered signing certificate with the notary, and drops it when re-added without', async () => {
    const tenant = unique('tenant');
    const record = notary(tenant, 'n-1', { certificateDer: 'MIIBcert' });
    await stores().notaries.upsert(record);
    expect(await stores().notaries.find(tenant, 'n-1')).toEqual(record);
    await stores().notaries.upsert(notary(tenant, 'n-1'));
    expect((await stores().notaries.find(tenant, 'n-1'))?.certificateDer).toBeUndefined();
    expect(await stores().notaries.find(unique('other'), 'n-1')).toBeUndefined();
    expect(await stores().notaries.find(tenant, 'n-2')).toBeUndefined();
  });

  it('replaces a notary on upsert, and a lookup sees the change at once', async () => {
    const tenant = unique('tenant');
    await stores().notaries.upsert(notary(tenant, 'n-1'));
    await stores().notaries.find(tenant, 'n-1');
    await stores().notaries.upsert(notary(tenant, 'n-1', { commissionExpires: '2031-01-31' }));
    expect((await stores().notaries.find(tenant, 'n-1'))?.commissionExpires).toBe('2031-01-31');
  });

  it('lists by tenant then id, and removes one notary of one tenant', async () => {
    const [t1, t2] = [unique('a-tenant'), unique('b-tenant')];
    await stores().notaries.upsert(notary(t1, 'n-2'));
    await stores().notaries.upsert(notary(t1, 'n-1'));
    await stores().notaries.upsert(notary(t2, 'n-1'));
    expect((await stores().notaries.list(t1)).map((n) => n.notaryId)).toEqual(['n-1', 'n-2']);
    const all = (await stores().notaries.list()).filter((n) => [t1, t2].includes(n.tenant));
    expect(all.map((n) => `${n.tenant}/${n.notaryId}`)).toEqual([
      `${t1}/n-1`,
      `${t1}/n-2`,
      `${t2}/n-1`,
    ]);
    expect(await stores().notaries.remove(t1, 'n-1')).toBe(true);
    expect(await stores().notaries.find(t1, 'n-1')).toBeUndefined();
    expect(await stores().notaries.find(t2, 'n-1')).toBeDefined();
    expect(await stores().notaries.remove(t1, 'n-1')).toBe(false);
  });
};

/** TenantPolicyAdminStore (src/storage/ports.ts): CI issuance's policy and `tenants` commands. */
export const tenantPolicyStoreContract: Contract = (stores) => {
  it('has no policy for a tenant that pinned nothing', async () => {
    expect(await stores().tenantPolicies.ciPolicy(unique('tenant'))).toEqual({});
  });

  it('keeps repositories and profile independently, and clears them together', async () => {
    const tenant = unique('tenant');
    await stores().tenantPolicies.setCiRepositories(tenant, ['acme/*', 'other/repo']);
    expect(await stores().tenantPolicies.ciPolicy(tenant)).toEqual({
      repositories: ['acme/*', 'other/repo'],
      profile: undefined,
    });
    await stores().tenantPolicies.setCiProfile(tenant, 'ci-provenance-v2');
    expect(await stores().tenantPolicies.ciPolicy(tenant)).toEqual({
      repositories: ['acme/*', 'other/repo'],
      profile: 'ci-provenance-v2',
    });
    await stores().tenantPolicies.setCiProfile(tenant, undefined);
    expect((await stores().tenantPolicies.ciPolicy(tenant)).profile).toBeUndefined();
    expect(await stores().tenantPolicies.clear(tenant)).toBe(true);
    expect(await stores().tenantPolicies.ciPolicy(tenant)).toEqual({});
    expect(await stores().tenantPolicies.clear(tenant)).toBe(false);
  });

  it('keeps an empty repository list (no repository allowed) apart from none pinned', async () => {
    const tenant = unique('tenant');
    await stores().tenantPolicies.setCiRepositories(tenant, []);
    expect((await stores().tenantPolicies.ciPolicy(tenant)).repositories).toEqual([]);
  });

  it('keeps notary trust anchors and the signer rule apart from the CI policy; clear removes both', async () => {
    const tenant = unique('tenant');
    expect(await stores().tenantPolicies.notaryTrust(tenant)).toBeUndefined();
    await stores().tenantPolicies.setNotaryTrust(tenant, {
      anchors: ['MIIBa', 'MIIBb'],
      signer: 'subject',
    });
    expect(await stores().tenantPolicies.notaryTrust(tenant)).toEqual({
      anchors: ['MIIBa', 'MIIBb'],
      signer: 'subject',
    });
    expect(await stores().tenantPolicies.ciPolicy(tenant)).toEqual({});
    await stores().tenantPolicies.setNotaryTrust(tenant, {
      anchors: ['MIIBc'],
      signer: 'certificate',
    });
    expect(await stores().tenantPolicies.notaryTrust(tenant)).toEqual({
      anchors: ['MIIBc'],
      signer: 'certificate',
    });
    expect(await stores().tenantPolicies.clear(tenant)).toBe(true);
    expect(await stores().tenantPolicies.notaryTrust(tenant)).toBeUndefined();
    await stores().tenantPolicies.setNotaryTrust(tenant, {
      anchors: ['MIIBc'],
      signer: 'certificate',
    });
    await stores().tenantPolicies.setNotaryTrust(tenant, undefined);
    expect(await stores().tenantPolicies.notaryTrust(tenant)).toBeUndefined();
  });

  it('forgets a policy left with neither repositories nor profile', async () => {
    const tenant = unique('tenant');
    await stores().tenantPolicies.setCiProfile(tenant, 'ci-provenance-v2');
    await stores().tenantPolicies.setCiProfile(tenant, undefined);
    expect(await stores().tenantPolicies.ciPolicy(tenant)).toEqual({});
    expect(await stores().tenantPolicies.clear(tenant)).toBe(false);
  });
};

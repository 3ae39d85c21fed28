import type { Knex } from 'knex';
import type { NotaryTrust, TenantCiPolicy } from '../receipts/ports.js';
import type { TenantPolicyAdminStore } from './ports.js';

interface Row {
  ci_repositories: string[] | string | null;
  ci_profile: string | null;
}

/**
 * Tenant policies (`tenant_policies`): one row per tenant that pinned its CI repositories, its
 * CI policy profile, or both; a row left with neither is removed. The notary trust anchors of
 * `doc.signatures` are a row of `tenant_notary_trust`.
 */
export class TenantPolicyRepository implements TenantPolicyAdminStore {
  constructor(private readonly knex: Knex) {}

  async ciPolicy(tenant: string): Promise<TenantCiPolicy> {
    const row = (await this.knex('tenant_policies')
      .where({ tenant })
      .first('ci_repositories', 'ci_profile')) as Row | undefined;
    if (!row) return {};
    const list = row.ci_repositories;
    return {
      repositories: typeof list === 'string' ? (JSON.parse(list) as string[]) : (list ?? undefined),
      profile: row.ci_profile ?? undefined,
    };
  }

  async setCiRepositories(tenant: string, patterns: string[]): Promise<void> {
    await this.upsert(tenant, { ci_repositories: JSON.stringify(patterns) });
  }

  /** Pins the tenant's CI profile; undefined returns it to the service default. */
  async setCiProfile(tenant: string, profile: string | undefined): Promise<void> {
    await this.upsert(tenant, { ci_profile: profile ?? null });
  }

  async notaryTrust(tenant: string): Promise<NotaryTrust | undefined> {
    const row = (await this.knex('tenant_notary_trust')
      .where({ tenant })
      .first('anchors', 'signer')) as { anchors: string[] | string; signer: string } | undefined;
    if (!row) return undefined;
    const anchors =
      typeof row.anchors === 'string' ? (JSON.parse(row.anchors) as string[]) : row.anchors;
    return { anchors, signer: row.signer === 'subject' ? 'subject' : 'certificate' };
  }

  async setNotaryTrust(tenant: string, trust: NotaryTrust | undefined): Promise<void> {
    if (!trust) {
      await this.knex('tenant_notary_trust').where({ tenant }).delete();
      return;
    }
    await this.knex('tenant_notary_trust')
      .insert({
        tenant,
        anchors: JSON.stringify(trust.anchors),
        signer: trust.signer,
        updated_at: new Date(),
      })
      .onConflict('tenant')
      .merge();
  }

  /** Removes the tenant's policy, notary trust included; whether there was one. */
  async clear(tenant: string): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const removed = await trx('tenant_policies').where({ tenant }).delete(['tenant']);
      const trust = await trx('tenant_notary_trust').where({ tenant }).delete(['tenant']);
      return removed.length + trust.length > 0;
    });
  }

  private async upsert(tenant: string, change: Record<string, string | null>): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx('tenant_policies')
        .insert({ tenant, ...change, updated_at: new Date() })
        .onConflict('tenant')
        .merge();
      await trx('tenant_policies')
        .where({ tenant })
        .whereNull('ci_repositories')
        .whereNull('ci_profile')
        .delete();
    });
  }
}

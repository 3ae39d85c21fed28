import type { Knex } from 'knex';
import type { TenantPolicyStore } from '../receipts/ports.js';

/** Tenant policies (`tenant_policies`): one row per tenant that pinned its CI repositories. */
export class TenantPolicyRepository implements TenantPolicyStore {
  constructor(private readonly knex: Knex) {}

  async ciRepositories(tenant: string): Promise<string[] | undefined> {
    const row = (await this.knex('tenant_policies').where({ tenant }).first('ci_repositories')) as
      { ci_repositories: string[] | string } | undefined;
    if (!row) return undefined;
    const value = row.ci_repositories;
    return typeof value === 'string' ? (JSON.parse(value) as string[]) : value;
  }

  async setCiRepositories(tenant: string, patterns: string[]): Promise<void> {
    await this.knex('tenant_policies')
      .insert({ tenant, ci_repositories: JSON.stringify(patterns), updated_at: new Date() })
      .onConflict('tenant')
      .merge();
  }

  /** Removes the tenant's policy; whether there was one. */
  async clear(tenant: string): Promise<boolean> {
    const removed = await this.knex('tenant_policies').where({ tenant }).delete(['tenant']);
    return removed.length > 0;
  }
}

import { isRepositoryPattern } from '../../receipts/checks/ci.js';
import { CI_PROFILE_IDS } from '../../receipts/ci-profiles.js';
import type { TenantCiPolicy } from '../../receipts/ports.js';
import { CliError, flags, required, withStore, type Command } from '../context.js';

/**
 * `tenants policy --tenant T [--ci-repositories LIST] [--ci-profile ID|default] [--clear]`:
 * which repositories the tenant's keys may get CI receipts for (`owner/*`, `owner/repo`,
 * comma-separated; any other is a FAIL `repository_not_allowed`) and which CI policy profile its
 * receipts are judged under. Without a change flag, prints the policy.
 */
const policy: Command = async (ctx) => {
  const { values } = flags(ctx, {
    tenant: { type: 'string' },
    'ci-repositories': { type: 'string' },
    'ci-profile': { type: 'string' },
    clear: { type: 'boolean' },
  });
  const tenant = required(values.tenant, 'tenant');
  const list = values['ci-repositories'];
  const profile = values['ci-profile'];
  if (values.clear && (typeof list === 'string' || typeof profile === 'string')) {
    throw new CliError('give either --clear or the settings to change, not both');
  }
  if (values.clear) {
    const had = await withStore(ctx, (repos) => repos.tenantPolicies.clear(tenant));
    ctx.out(
      had
        ? `tenant ${tenant}: policy removed, any repository allowed, profile ci-provenance-v1`
        : `tenant ${tenant} had no policy`,
    );
    return;
  }
  const patterns = typeof list === 'string' ? repositoryPatterns(list) : undefined;
  const pinned = typeof profile === 'string' ? profileOf(profile) : undefined;
  const current = await withStore(ctx, async (repos) => {
    if (patterns) await repos.tenantPolicies.setCiRepositories(tenant, patterns);
    if (pinned) await repos.tenantPolicies.setCiProfile(tenant, pinned.id);
    return repos.tenantPolicies.ciPolicy(tenant);
  });
  ctx.out(describe(tenant, current));
};

function repositoryPatterns(list: string): string[] {
  const patterns = [
    ...new Set(
      list
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
  const bad = patterns.filter((p) => !isRepositoryPattern(p));
  if (patterns.length === 0 || bad.length > 0) {
    throw new CliError(
      `--ci-repositories takes owner/* or owner/repo, comma-separated${bad.length ? `; not valid: ${bad.join(', ')}` : ''}`,
    );
  }
  return patterns;
}

/** `default` unpins (the service default, ci-provenance-v1). */
function profileOf(value: string): { id: string | undefined } {
  if (value === 'default') return { id: undefined };
  if (!CI_PROFILE_IDS.includes(value)) {
    throw new CliError(`--ci-profile takes ${CI_PROFILE_IDS.join(', ')} or default`);
  }
  return { id: value };
}

function describe(tenant: string, policy: TenantCiPolicy): string {
  const repos = policy.repositories
    ? `may get CI receipts for ${policy.repositories.join(', ')} only`
    : 'may get CI receipts for any repository';
  const profile = policy.profile ?? 'ci-provenance-v1 (default)';
  return `tenant ${tenant} ${repos}; CI profile ${profile}`;
}

export const tenantCommands: Record<string, Command> = { policy };

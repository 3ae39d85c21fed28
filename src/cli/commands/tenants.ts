import { isRepositoryPattern } from '../../receipts/checks/ci.js';
import { CliError, flags, required, withStore, type Command } from '../context.js';

/**
 * `tenants policy --tenant T [--ci-repositories LIST | --clear]`: which repositories the
 * tenant's keys may get CI receipts for (`owner/*`, `owner/repo`, comma-separated); a CI request
 * for any other is a FAIL `repository_not_allowed`. Without a change flag, prints the policy.
 */
const policy: Command = async (ctx) => {
  const { values } = flags(ctx, {
    tenant: { type: 'string' },
    'ci-repositories': { type: 'string' },
    clear: { type: 'boolean' },
  });
  const tenant = required(values.tenant, 'tenant');
  const list = values['ci-repositories'];
  if (typeof list === 'string' && values.clear) {
    throw new CliError('give either --ci-repositories or --clear');
  }
  if (typeof list === 'string') {
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
    await withStore(ctx, (repos) => repos.tenantPolicies.setCiRepositories(tenant, patterns));
    ctx.out(`tenant ${tenant} may get CI receipts for ${patterns.join(', ')} only`);
    return;
  }
  if (values.clear) {
    const had = await withStore(ctx, (repos) => repos.tenantPolicies.clear(tenant));
    ctx.out(
      had
        ? `tenant ${tenant}: policy removed, any repository allowed`
        : `tenant ${tenant} had no policy`,
    );
    return;
  }
  const patterns = await withStore(ctx, (repos) => repos.tenantPolicies.ciRepositories(tenant));
  ctx.out(
    patterns
      ? `tenant ${tenant} may get CI receipts for ${patterns.join(', ')} only`
      : `tenant ${tenant} has no policy: any repository allowed`,
  );
};

export const tenantCommands: Record<string, Command> = { policy };

import { X509Certificate } from 'node:crypto';
import { isRepositoryPattern } from '../../receipts/checks/ci.js';
import { CI_PROFILE_IDS } from '../../receipts/ci-profiles.js';
import type { NotaryTrust, TenantCiPolicy } from '../../receipts/ports.js';
import { CliError, required, withStore, type Command } from '../context.js';
import { readCertificates } from '../notary-certificates.js';

/**
 * `tenants policy --tenant T [--ci-repositories LIST] [--ci-profile ID|default]
 * [--notary-trust-anchors FILE|none] [--notary-signer certificate|subject] [--clear]`:
 * which repositories the tenant's keys may get CI receipts for (`owner/*`, `owner/repo`,
 * comma-separated; any other is a FAIL `repository_not_allowed`), which CI policy profile its
 * receipts are judged under, and which CA certificates its notaries' document signatures must
 * chain to (`doc.signatures`). Without a change flag, prints the policy.
 */
const policy: Command = async (ctx) => {
  const { flags } = ctx;
  const tenant = required(flags.string('tenant'), 'tenant');
  const list = flags.string('ci-repositories');
  const profile = flags.string('ci-profile');
  const anchorsFile = flags.string('notary-trust-anchors');
  const signer = flags.string('notary-signer');
  const clear = flags.boolean('clear');
  const changes = [list, profile, anchorsFile, signer].some((v) => typeof v === 'string');
  if (clear && changes) {
    throw new CliError('give either --clear or the settings to change, not both');
  }
  if (clear) {
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
  const anchors =
    typeof anchorsFile === 'string' && anchorsFile !== 'none'
      ? readCertificates(anchorsFile, '--notary-trust-anchors').map((c) => c.der)
      : undefined;
  const signerRule = typeof signer === 'string' ? signerOf(signer) : undefined;
  const current = await withStore(ctx, async (repos) => {
    if (patterns) await repos.tenantPolicies.setCiRepositories(tenant, patterns);
    if (pinned) await repos.tenantPolicies.setCiProfile(tenant, pinned.id);
    const trust = await repos.tenantPolicies.notaryTrust(tenant);
    if (anchorsFile === 'none') await repos.tenantPolicies.setNotaryTrust(tenant, undefined);
    else if (anchors || signerRule) {
      if (!anchors && !trust) {
        throw new CliError('--notary-signer needs trust anchors: give --notary-trust-anchors too');
      }
      await repos.tenantPolicies.setNotaryTrust(tenant, {
        anchors: anchors ?? trust?.anchors ?? [],
        signer: signerRule ?? trust?.signer ?? 'certificate',
      });
    }
    return {
      ci: await repos.tenantPolicies.ciPolicy(tenant),
      notary: await repos.tenantPolicies.notaryTrust(tenant),
    };
  });
  ctx.out(describe(tenant, current.ci));
  // the notary line only for tenants that use doc.signatures (or are setting it up)
  if (current.notary || typeof anchorsFile === 'string' || typeof signer === 'string') {
    ctx.out(describeNotaryTrust(tenant, current.notary));
  }
};

function signerOf(value: string): NotaryTrust['signer'] {
  if (value !== 'certificate' && value !== 'subject') {
    throw new CliError('--notary-signer takes certificate or subject');
  }
  return value;
}

function describeNotaryTrust(tenant: string, trust: NotaryTrust | undefined): string {
  if (!trust)
    return `tenant ${tenant} has no notary trust anchors: every document signature is signer_not_trusted`;
  const subjects = trust.anchors.map((der) => {
    try {
      const cert = new X509Certificate(Buffer.from(der, 'base64'));
      return `${JSON.stringify(cert.subject.split('\n').join(', '))} (sha256:${cert.fingerprint256.replaceAll(':', '').toLowerCase()})`;
    } catch {
      return 'an unreadable certificate';
    }
  });
  const rule =
    trust.signer === 'certificate'
      ? "the signer must be the notary's registered certificate"
      : "the signer certificate's subject must name the registered notary";
  return `tenant ${tenant} notary trust anchors: ${subjects.join('; ')}; ${rule}`;
}

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

import { parse, YAMLError } from 'yaml';
import {
  MAX_REPOSITORY_POLICY_BYTES,
  type RepositoryPolicyCheckResult,
} from '../contract/repository-policy.js';
import type { EnvironmentPolicy } from '../receipts/deployment-gates/policy.js';
import { describeIssue, RepoConfig, repoConfigDefaults } from './repo-config.js';

/**
 * `.github/receipts.yml` checked offline, before it is pushed (`receipts policy check`): the
 * same schema the App applies, each problem one line with its path, and for a valid file what
 * each gated environment will accept. A file the App cannot read rejects every gated deployment,
 * so the only safe time to find its mistakes is before the push.
 */

export const MAX_REPO_CONFIG_BYTES = MAX_REPOSITORY_POLICY_BYTES;

export type PolicyCheck =
  { ok: true; config: RepoConfig; notes: string[] } | { ok: false; problems: string[] };

export function checkRepoConfigText(
  text: string,
  defaultTrustedEvents: readonly string[],
): PolicyCheck {
  if (Buffer.byteLength(text) > MAX_REPO_CONFIG_BYTES) {
    return { ok: false, problems: [`the file is larger than ${MAX_REPO_CONFIG_BYTES} bytes`] };
  }
  let raw: unknown;
  try {
    // the parser and fallback Probot's config loader uses, so both read the same file alike
    raw = (parse(text, { logLevel: 'error' }) as unknown) || {};
  } catch (err) {
    if (!(err instanceof YAMLError)) throw err;
    const [start] = err.linePos ?? [];
    const at = start ? ` (line ${start.line}, column ${start.col})` : '';
    const reason = err.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, problems: [`not valid YAML${at}: ${reason}`] };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: ['not a YAML mapping (the file must hold keys and values)'] };
  }
  const notes: string[] = [];
  const { _extends: extendsFrom, ...own } = raw as Record<string, unknown>;
  if (extendsFrom !== undefined) {
    notes.push(
      `\`_extends\` is resolved by the App from another repository; this check reads this file alone`,
    );
  }
  const parsed = RepoConfig.safeParse(
    { ...repoConfigDefaults(defaultTrustedEvents), ...own },
    { reportInput: true },
  );
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map(describeIssue) };
  return { ok: true, config: parsed.data, notes };
}

/** The check as the HTTP API answers it (POST /api/v1/repository-policy/check). */
export function repositoryPolicyReport(
  text: string,
  defaultTrustedEvents: readonly string[],
): RepositoryPolicyCheckResult {
  const result = checkRepoConfigText(text, defaultTrustedEvents);
  return result.ok
    ? {
        valid: true,
        problems: [],
        notes: result.notes,
        environments: gatedEnvironments(result.config),
      }
    : { valid: false, problems: result.problems, notes: [], environments: [] };
}

/** One line per gated environment: which receipts of a commit can meet its policy. */
export function gatedEnvironments(config: RepoConfig): string[] {
  const deployments = config.deployments;
  if (!deployments || Object.keys(deployments).length === 0) {
    return [`no \`deployments\` entry: the App gates no deployment of this repository`];
  }
  return Object.entries(deployments).map(
    ([name, policy]) => `${name === '*' ? 'any other environment' : name}: ${whatCanMeet(policy)}`,
  );
}

/** In words: the receipts that can meet an environment's policy, and for how long it waits. */
export function whatCanMeet(policy: EnvironmentPolicy): string {
  const decision = policy.allowComplianceGap ? 'ALLOW or FLAG' : 'ALLOW';
  const profile = policy.profile ? ` under ${policy.profile}` : '';
  const needsToken = policy.identity === 'oidc' || policy.workflow !== undefined;
  const from = needsToken
    ? "issued by the composite action with the run's OIDC token (`id-token: write` and the " +
      "service's audience set): the App's own receipts never meet it"
    : "issued by the App, or by the action with the run's OIDC token";
  const parts = [`an ${decision} receipt${profile} of the commit ${from}`];
  if (policy.workflow) parts.push(`made by ${policy.workflow}`);
  if (policy.denySelfHostedRunners) parts.push('proven to have run on GitHub-hosted runners');
  if (policy.maxAge) parts.push(`at most ${policy.maxAge} old`);
  parts.push(`waits ${policy.wait} for it, then rejects`);
  return parts.join('; ');
}

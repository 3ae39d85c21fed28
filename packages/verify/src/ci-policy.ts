import type { Verdict } from './verdict.js';

/**
 * What a deploy script requires of a CI receipt beyond its authenticity (the receipt-verify
 * options --repo, --sha, --signer-workflow, --deny-self-hosted-runners, --profile). Each
 * condition the receipt does not meet is named; an authentic receipt that misses one is exit 3.
 */
export interface CiPolicy {
  /** `owner/name`, compared case-insensitively (GitHub names are). */
  repo?: string;
  /** The commit the run built. */
  sha?: string;
  /** The workflow file, e.g. `.github/workflows/release.yml`, proven by the run's OIDC token. */
  signerWorkflow?: string;
  /** The run must be proven to have used GitHub-hosted runners only. */
  denySelfHostedRunners?: boolean;
  /** The policy profile the receipt was judged under, e.g. `ci-provenance-v2`. */
  profile?: string;
}

export function hasCiPolicy(policy: CiPolicy): boolean {
  return Object.values(policy).some((value) => value !== undefined && value !== false);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** The workflow file of a `workflow_ref` (`owner/repo/.github/workflows/x.yml@ref`). */
function workflowOf(workflowRef: string | undefined): string | undefined {
  return /^[^/]+\/[^/]+\/(\.github\/workflows\/[^@]+)@/.exec(workflowRef ?? '')?.[1];
}

/** The runner the receipt proves: the token's claim, else a passing ci.runner check. */
function runnerOf(receipt: Record<string, unknown>, claim: string | undefined) {
  if (claim) return claim;
  const checks = Array.isArray(receipt.checks) ? (receipt.checks as Record<string, unknown>[]) : [];
  return checks.find((c) => c.checkId === 'ci.runner')?.status === 'PASS'
    ? 'github-hosted'
    : undefined;
}

/** Every condition of `policy` the receipt does not meet, in words. */
export function ciPolicyFailures(receipt: Record<string, unknown>, policy: CiPolicy): string[] {
  const subject = (receipt.subject ?? {}) as Record<string, unknown>;
  if (subject.kind !== 'ci-workflow-run') return ['the receipt is not a CI receipt'];
  const identity = (subject.identity ?? {}) as Record<string, unknown>;
  const failures: string[] = [];
  const repository = text(subject.repository) ?? '';
  if (policy.repo && repository.toLowerCase() !== policy.repo.toLowerCase()) {
    failures.push(`repository is ${repository || 'absent'}, not ${policy.repo}`);
  }
  const sha = text(subject.headSha) ?? '';
  if (policy.sha && sha.toLowerCase() !== policy.sha.toLowerCase()) {
    failures.push(`commit is ${sha || 'absent'}, not ${policy.sha}`);
  }
  if (policy.signerWorkflow) {
    const workflow =
      identity.source === 'oidc' ? workflowOf(text(identity.workflow_ref)) : undefined;
    if (workflow !== policy.signerWorkflow) {
      failures.push(
        workflow
          ? `signer workflow is ${workflow}, not ${policy.signerWorkflow}`
          : `the signer workflow is not proven by an OIDC token of the run (required: ${policy.signerWorkflow})`,
      );
    }
  }
  if (policy.denySelfHostedRunners) {
    const runner = runnerOf(receipt, text(identity.runner_environment));
    if (runner !== 'github-hosted') {
      failures.push(
        runner === 'self-hosted'
          ? 'the run used a self-hosted runner'
          : 'the runner is not proven to be GitHub-hosted',
      );
    }
  }
  const profile = text(receipt.policyProfile);
  if (policy.profile && profile !== policy.profile) {
    failures.push(`policy profile is ${profile ?? 'absent'}, not ${policy.profile}`);
  }
  return failures;
}

/** The verdict under the policy: an authentic receipt that misses a condition is exit 3. */
export function withCiPolicy(verdict: Verdict, policy: CiPolicy): Verdict {
  if (!hasCiPolicy(policy) || !verdict.authentic || !verdict.receipt) return verdict;
  return withPolicyFailures(verdict, ciPolicyFailures(verdict.receipt, policy));
}

/** `verdict` with the policy's outcome: met, or rejected (exit 3) naming every failure. */
export function withPolicyFailures(verdict: Verdict, failures: string[]): Verdict {
  if (failures.length === 0) return { ...verdict, policy: { met: true, failures } };
  return {
    ...verdict,
    verdict: 'rejected',
    exitCode: 3,
    summary: `AUTHENTIC, CI POLICY NOT MET: ${failures.join('; ')}`,
    policy: { met: false, failures },
  };
}

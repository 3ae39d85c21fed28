import { z } from 'zod';
import { CI_PROFILE_IDS } from '../ci-profiles.js';

/**
 * The `deployments` policy of `.github/receipts.yml` (docs/github-app.md, "Gate deployments"):
 * per environment (its name, without case as GitHub compares them, else `*`), which CI receipts
 * of the deployment's commit count and what they must show. Evaluation is pure: the gate
 * gathers the receipts, this decides.
 */

const DURATION = /^([1-9][0-9]{0,5})(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `12h`, `7d`: minutes, hours or days (at most 6 digits). */
const Duration = z
  .string()
  .regex(DURATION, 'must be a number followed by m, h or d (e.g. 30m, 12h, 7d)');

export function durationMs(value: string): number {
  const match = DURATION.exec(value);
  if (!match) throw new Error(`not a duration: ${value}`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

export const EnvironmentPolicy = z.strictObject({
  /** The CI profile the receipt was judged under; absent: any. */
  profile: z.enum(CI_PROFILE_IDS).optional(),
  /** `false` (default): only `clean` (ALLOW) counts; `true`: `compliance_gap` (FLAG) too. */
  allowComplianceGap: z.boolean().default(false),
  /** `oidc`: the run's OIDC token was verified; `proven`: OIDC or the App's signed webhook. */
  identity: z.enum(['oidc', 'proven']).optional(),
  /** The workflow file that must have produced the receipt, e.g. `.github/workflows/release.yml`. */
  workflow: z
    .string()
    .regex(/^\.github\/workflows\/[^/@\s]{1,200}\.ya?ml$/, 'must be .github/workflows/<file>.yml')
    .optional(),
  /** The run must be proven to have used GitHub-hosted runners only. */
  denySelfHostedRunners: z.boolean().default(false),
  /** The receipt's greatest age when the deployment is decided. */
  maxAge: Duration.optional(),
  /** `true` (default): a revoked receipt of the commit rejects the deployment. */
  revokedRejects: z.boolean().default(true),
  /** How long to wait for a matching receipt before rejecting (default 60m). */
  wait: Duration.default('60m'),
});
export type EnvironmentPolicy = z.infer<typeof EnvironmentPolicy>;

const ENVIRONMENT_NAME = /^(\*|[^\s][^\n]{0,254})$/;

/** GitHub compares environment names case-insensitively: `Production` is `production`. */
const environmentKey = (name: string): string => name.toLowerCase();

/** Names that GitHub takes for one environment, listed twice. */
function sameEnvironmentTwice(value: Record<string, unknown>): string[] {
  const seen = new Map<string, string>();
  const twice: string[] = [];
  for (const name of Object.keys(value)) {
    const first = seen.get(environmentKey(name));
    if (first !== undefined) twice.push(`${first} and ${name}`);
    else seen.set(environmentKey(name), name);
  }
  return twice;
}

export const DeploymentsPolicy = z
  .record(z.string().regex(ENVIRONMENT_NAME, 'an environment name or *'), EnvironmentPolicy)
  .refine((value) => Object.keys(value).length <= 100, 'at most 100 environments')
  .superRefine((value, ctx) => {
    for (const pair of sameEnvironmentTwice(value)) {
      ctx.addIssue({
        code: 'custom',
        message: `${pair} name the same environment (GitHub ignores case): keep one`,
      });
    }
  });
export type DeploymentsPolicy = z.infer<typeof DeploymentsPolicy>;

/** The environment's policy: its name in any case, else `*`, else none (not gated). */
export function policyFor(
  policies: DeploymentsPolicy | undefined,
  environment: string,
): EnvironmentPolicy | undefined {
  if (!policies) return undefined;
  const key = environmentKey(environment);
  const named = Object.keys(policies).find((name) => name !== '*' && environmentKey(name) === key);
  return named === undefined ? policies['*'] : policies[named];
}

/** What the gate knows about one CI receipt of the commit. */
export interface GateReceipt {
  id: string;
  receiptHash: string;
  createdAt: Date;
  profile: string;
  decision: string;
  revoked: boolean;
  /** The stored receipt still verifies (hash, signature). */
  intact: boolean;
  /** `oidc`, `github-app`, or undefined (self-reported). */
  identitySource: string | undefined;
  /** The verified token's `workflow_ref` (`owner/repo/.github/workflows/x.yml@ref`). */
  workflowRef: string | undefined;
  /** `github-hosted` / `self-hosted` when proven (the token or a passing ci.runner check). */
  runnerEnvironment: string | undefined;
}

export type GateDecision =
  | { state: 'approved'; receipt: GateReceipt; reason: string }
  | { state: 'rejected'; receipt?: GateReceipt; reason: string }
  | { state: 'pending'; reason: string };

/** The workflow file of a `workflow_ref`, e.g. `.github/workflows/release.yml`. */
export function workflowPathOf(workflowRef: string | undefined): string | undefined {
  const match = /^[^/]+\/[^/]+\/(\.github\/workflows\/[^@]+)@/.exec(workflowRef ?? '');
  return match?.[1];
}

/** Does the receipt belong to the policy's set at all (profile, workflow)? */
function counts(policy: EnvironmentPolicy, receipt: GateReceipt): boolean {
  if (policy.profile && receipt.profile !== policy.profile) return false;
  if (policy.workflow && workflowPathOf(receipt.workflowRef) !== policy.workflow) return false;
  return true;
}

/** Each condition the receipt does not meet, named. */
export function unmetConditions(
  policy: EnvironmentPolicy,
  receipt: GateReceipt,
  now: Date,
): string[] {
  const unmet: string[] = [];
  if (!receipt.intact) unmet.push('the stored receipt no longer verifies (hash or signature)');
  const allowed = policy.allowComplianceGap ? ['ALLOW', 'FLAG'] : ['ALLOW'];
  if (!allowed.includes(receipt.decision)) {
    unmet.push(
      `decision ${receipt.decision} (required: ${policy.allowComplianceGap ? 'clean or compliance_gap' : 'clean'})`,
    );
  }
  if (policy.identity === 'oidc' && receipt.identitySource !== 'oidc') {
    unmet.push('identity not verified by an OIDC token of the run');
  }
  if (policy.identity === 'proven' && receipt.identitySource === undefined) {
    unmet.push('identity not proven (self-reported)');
  }
  if (policy.denySelfHostedRunners && receipt.runnerEnvironment !== 'github-hosted') {
    unmet.push(
      receipt.runnerEnvironment === 'self-hosted'
        ? 'the run used a self-hosted runner'
        : 'the runner is not proven to be GitHub-hosted',
    );
  }
  if (policy.maxAge) {
    const age = now.getTime() - receipt.createdAt.getTime();
    if (age > durationMs(policy.maxAge)) unmet.push(`older than maxAge ${policy.maxAge}`);
  }
  return unmet;
}

/**
 * The decision for the environment: a revoked receipt in the set rejects (unless the policy
 * says otherwise: then it does not count); a receipt meeting every condition approves; none in
 * the set yet is pending until `wait` has passed since `requestedAt`; otherwise the newest
 * receipt's unmet conditions reject.
 */
export function evaluateDeployment(
  policy: EnvironmentPolicy,
  receipts: readonly GateReceipt[],
  times: { now: Date; requestedAt: Date },
): GateDecision {
  const set = receipts
    .filter((r) => counts(policy, r))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const revoked = set.find((r) => r.revoked);
  if (revoked && policy.revokedRejects) {
    return { state: 'rejected', receipt: revoked, reason: `receipt ${revoked.id} is revoked` };
  }
  const live = set.filter((r) => !r.revoked);
  const met = live.find((r) => unmetConditions(policy, r, times.now).length === 0);
  if (met) {
    return { state: 'approved', receipt: met, reason: `receipt ${met.id} meets the policy` };
  }
  const newest = live[0];
  if (newest) {
    const unmet = unmetConditions(policy, newest, times.now);
    return {
      state: 'rejected',
      receipt: newest,
      reason: `receipt ${newest.id} does not meet the policy: ${unmet.join('; ')}`,
    };
  }
  const waited = times.now.getTime() - times.requestedAt.getTime();
  const what = `no matching CI receipt${policy.workflow ? ` from ${policy.workflow}` : ''}`;
  if (waited >= durationMs(policy.wait)) {
    return { state: 'rejected', reason: `${what} was issued within ${policy.wait}` };
  }
  return { state: 'pending', reason: `${what} yet` };
}

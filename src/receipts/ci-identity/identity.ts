import type { CheckOutcome } from '../types.js';

/**
 * The CI run's identity as evidence: who ran the workflow, proven rather than self-reported, and
 * what a receipt records of it. Three sources:
 * - an OpenID Connect ID token of the run (GitHub Actions `id-token: write`), sent by the action
 *   in `x-ci-oidc-token` and verified against the issuer's keys; its claims must match the request;
 * - the GitHub App path: the signed webhook and the installation's API access prove the run;
 * - nothing: the receipt says the identity is unverified.
 * The `ci.identity` check that judges this evidence is checks/ci-identity.ts.
 */

/** Claims of a verified token that the receipt records (GitHub Actions OIDC claim names). */
export interface CiIdentityClaims {
  issuer: string;
  repository: string;
  sha: string;
  event_name: string;
  run_id?: string;
  run_attempt?: string;
  workflow_ref?: string;
  job_workflow_ref?: string;
  ref?: string;
  repository_id?: string;
  repository_owner_id?: string;
  runner_environment?: string;
  /** The token's id and expiry (seconds): it is accepted once, remembered while it verifies. */
  jti?: string;
  exp?: number;
}

/** The run a request names: `<run id>/<run attempt>` (GitHub's run_id and run_attempt). */
export interface RunName {
  runId: string;
  attempt: string;
}

export type CiIdentityEvidence =
  | { kind: 'none' }
  | { kind: 'github-app'; installationId: number }
  | { kind: 'oidc-valid'; claims: CiIdentityClaims }
  | { kind: 'oidc-replayed'; claims: CiIdentityClaims }
  | { kind: 'oidc-invalid'; reason: string };

/** The claims a receipt records, verified or refused (never the token itself). */
function recordedClaims(c: CiIdentityClaims): Record<string, unknown> {
  const recorded = {
    issuer: c.issuer,
    repository: c.repository,
    workflow_ref: c.workflow_ref,
    job_workflow_ref: c.job_workflow_ref,
    ref: c.ref,
    repository_id: c.repository_id,
    repository_owner_id: c.repository_owner_id,
    runner_environment: c.runner_environment,
    run_id: c.run_id,
    run_attempt: c.run_attempt,
  };
  return Object.fromEntries(Object.entries(recorded).filter(([, v]) => v !== undefined));
}

/**
 * What the receipt's subject records of the run's identity, given the `ci.identity` outcome:
 * the proven identity (`source: oidc` or `github-app`) only when the check passed. A token that
 * was refused (invalid, replayed, or of another run or repository) is recorded as what it
 * claimed and why it was refused, under `source: refused`: readers (the deployment gate, the
 * verifier's --signer-workflow) take `source: oidc` as proof, so a refused token never has it.
 */
export function identitySubject(
  evidence: CiIdentityEvidence,
  outcome: CheckOutcome | undefined,
): Record<string, unknown> | undefined {
  if (evidence.kind === 'none') return undefined;
  if (evidence.kind === 'github-app') {
    return { source: 'github-app', installationId: evidence.installationId };
  }
  if (evidence.kind === 'oidc-valid' && outcome?.status === 'PASS') {
    return { source: 'oidc', ...recordedClaims(evidence.claims) };
  }
  const claims =
    evidence.kind === 'oidc-invalid'
      ? {}
      : { ...recordedClaims(evidence.claims), sha: evidence.claims.sha };
  return {
    source: 'refused',
    ...(outcome?.reason ? { reason: outcome.reason } : {}),
    claimed: { source: 'oidc', ...claims },
  };
}

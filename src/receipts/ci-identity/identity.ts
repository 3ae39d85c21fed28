import type { CiVerificationRequest } from '../../contract/ci.js';
import type { CheckOutcome } from '../types.js';
import { fail, pass, quote, warn } from '../checks/outcome.js';

/**
 * `ci.identity`: who ran the workflow, proven rather than self-reported. Three sources:
 * - an OpenID Connect ID token of the run (GitHub Actions `id-token: write`), sent by the action
 *   in `x-ci-oidc-token` and verified against the issuer's keys; its claims must match the request;
 * - the GitHub App path: the signed webhook and the installation's API access prove the run;
 * - nothing: the receipt says the identity is unverified (WARN, so `compliance_gap`).
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

/** The run the default externalId `<owner/repo>/<run id>/<run attempt>` names, if it is one. */
function defaultRun(request: CiVerificationRequest): RunName | undefined {
  const prefix = `${request.repository.fullName}/`;
  if (!request.externalId.startsWith(prefix)) return undefined;
  const m = /^([0-9]+)\/([0-9]+)$/.exec(request.externalId.slice(prefix.length));
  return m ? { runId: m[1] as string, attempt: m[2] as string } : undefined;
}

/**
 * Every run the request names (the default externalId form and the x-ci-run header): the token
 * must be of each. A request that names none cannot be tied to the token's run, so it differs.
 */
function runMismatches(c: CiIdentityClaims, named: (RunName | undefined)[]): string[] {
  const runs = named.filter((r): r is RunName => r !== undefined);
  if (runs.length === 0) {
    return ['the request names no run (x-ci-run header or the default externalId form)'];
  }
  const token = `${c.run_id}/${c.run_attempt}`;
  return runs
    .filter((run) => c.run_id !== run.runId || c.run_attempt !== run.attempt)
    .map((run) => `run ${quote(token)} (request names ${run.runId}/${run.attempt})`);
}

function mismatches(
  request: CiVerificationRequest,
  c: CiIdentityClaims,
  run: RunName | undefined,
): string[] {
  const out: string[] = [];
  if (c.repository.toLowerCase() !== request.repository.fullName.toLowerCase()) {
    out.push(`repository ${quote(c.repository)} (request: ${quote(request.repository.fullName)})`);
  }
  if (c.sha !== request.headSha)
    out.push(`sha ${quote(c.sha)} (request: ${quote(request.headSha)})`);
  if (c.event_name !== request.provenance.eventName) {
    out.push(`event_name ${quote(c.event_name)} (request: ${quote(request.provenance.eventName)})`);
  }
  return [...out, ...runMismatches(c, [defaultRun(request), run])];
}

export function checkIdentity(
  request: CiVerificationRequest,
  evidence: CiIdentityEvidence,
  run?: RunName,
): CheckOutcome {
  switch (evidence.kind) {
    case 'none':
      return warn(
        'ci.identity',
        'identity_unverified',
        'no OIDC token of the run was sent (x-ci-oidc-token): who ran the workflow is self-reported',
      );
    case 'github-app':
      return pass(
        'ci.identity',
        `proven by the signed GitHub webhook and installation ${evidence.installationId}`,
      );
    case 'oidc-invalid':
      return fail(
        'ci.identity',
        'identity_invalid',
        `the OIDC token was refused: ${evidence.reason}`,
      );
    case 'oidc-replayed':
      return fail(
        'ci.identity',
        'identity_replayed',
        `the OIDC token (jti ${quote(evidence.claims.jti ?? '')}) was already used for another request: a token proves one run once`,
      );
    case 'oidc-valid': {
      const differ = mismatches(request, evidence.claims, run);
      return differ.length > 0
        ? fail(
            'ci.identity',
            'identity_mismatch',
            `the token's claims differ: ${differ.join('; ')}`,
          )
        : pass(
            'ci.identity',
            `OIDC token of ${evidence.claims.issuer} for ${evidence.claims.repository}@${evidence.claims.sha} (${evidence.claims.workflow_ref ?? 'workflow unknown'})`,
          );
    }
  }
}

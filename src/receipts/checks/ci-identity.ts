import type { CiVerificationRequest } from '../../contract/ci.js';
import type { CiIdentityClaims, CiIdentityEvidence, RunName } from '../ci-identity/identity.js';
import type { CheckOutcome } from '../types.js';
import { fail, pass, quote, warn } from './outcome.js';

/**
 * `ci.identity`: whether the run's identity evidence (ci-identity/identity.ts) proves who ran the
 * workflow this request describes. A verified OIDC token must be of the request's repository,
 * commit, event and run; the GitHub App path is proven by its signed webhook; no evidence leaves
 * the identity self-reported (WARN, so `compliance_gap`).
 */

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

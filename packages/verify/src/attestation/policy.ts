import { hasCiPolicy, withPolicyFailures, type CiPolicy } from '../ci-policy.js';
import type { Verdict } from '../verdict.js';
import type { AttestationFacts } from './statement.js';

/**
 * The CI options of receipt-verify against what an attestation states: the repository and commit
 * of its `resourceUri` (whose subject digest the vsa-subject step matched), and the profile of its
 * `policy.uri`. The summary does not carry the run's OIDC identity or runner, so
 * --signer-workflow and --deny-self-hosted-runners are never met by an attestation.
 */

const UNPROVEN =
  'the attestation does not prove it: verify the receipt bundle or PDF (GET /api/v1/receipt/{id}/bundle) instead';

export function attestationPolicyFailures(facts: AttestationFacts, policy: CiPolicy): string[] {
  const failures: string[] = [];
  if ((policy.repo || policy.sha) && !facts.sha)
    failures.push('the attestation is not about a commit (not a CI receipt)');
  const repository = facts.repository ?? '';
  if (policy.repo && facts.sha && repository.toLowerCase() !== policy.repo.toLowerCase())
    failures.push(`repository is ${repository}, not ${policy.repo}`);
  if (policy.sha && facts.sha && facts.sha.toLowerCase() !== policy.sha.toLowerCase())
    failures.push(`commit is ${facts.sha}, not ${policy.sha}`);
  if (policy.signerWorkflow)
    failures.push(
      `the signer workflow (required: ${policy.signerWorkflow}) is not stated: ${UNPROVEN}`,
    );
  if (policy.denySelfHostedRunners)
    failures.push(`GitHub-hosted runners are not stated: ${UNPROVEN}`);
  if (policy.profile) {
    const level = `VERIFICATION_RECEIPT_${policy.profile.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
    if (facts.profile !== policy.profile || !facts.verifiedLevels.includes(level))
      failures.push(`policy profile is ${facts.profile ?? 'absent'}, not ${policy.profile}`);
  }
  return failures;
}

/** The verdict under the policy: an authentic attestation that misses a condition is exit 3. */
export function withAttestationPolicy(verdict: Verdict, policy: CiPolicy): Verdict {
  if (!hasCiPolicy(policy) || !verdict.authentic || !verdict.attestation) return verdict;
  return withPolicyFailures(verdict, attestationPolicyFailures(verdict.attestation, policy));
}

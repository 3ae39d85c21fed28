import { CiVerificationRequest } from '../contract/ci.js';
import { receiptLinks } from '../contract/links.js';
import { ciResponseOf } from '../receipts/ci-result.js';
import type { CiRunFactsSource } from '../receipts/issuance.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { SafeCheckError } from './check-run.js';
import type { ReceiptsAppDeps } from './deps.js';
import { receiptOutput, type CheckOutput } from './output.js';
import type { RepoConfig } from './repo-config.js';

/** The check output for a stored receipt, via the adapter response of the HTTP endpoint. */
export function outputOfRecord(
  deps: ReceiptsAppDeps,
  record: ReceiptRecord,
  input: { workflowRunUrl?: string | undefined },
): CheckOutput {
  const response = ciResponseOf(record, receiptLinks(deps.publicUrl), input.workflowRunUrl);
  return receiptOutput({ record, response, publicUrl: deps.publicUrl, ...input });
}

/**
 * Issues (or finds, idempotent per externalId) the receipt through the same path as
 * POST /api/v1/verifications/ci: the request is validated with the endpoint's own schema,
 * then `issueCi` with the repository's trusted events, then `ciResponseOf`.
 */
export async function issueForRun(
  deps: ReceiptsAppDeps,
  tenant: string,
  request: CiVerificationRequest,
  config: RepoConfig,
  proof: { installationId: number; runFacts: CiRunFactsSource },
): Promise<CheckOutput> {
  const parsed = CiVerificationRequest.safeParse(request);
  if (!parsed.success) {
    const paths = [...new Set(parsed.error.issues.map((i) => i.path.join('.')))].join(', ');
    throw new SafeCheckError(`the workflow run is not a valid verification request (${paths}).`);
  }
  // the signed webhook and this installation's API access prove who ran the workflow
  const { record, created } = await deps.receipts.issueCi(tenant, parsed.data, {
    trustedEvents: [...config.trustedEvents],
    identity: { kind: 'github-app', installationId: proof.installationId },
    profile: config.policyProfile,
    runFacts: proof.runFacts,
  });
  // a receipt found by its externalId was read back from the store: check it before reporting
  if (!created) await deps.receipts.assertIntact(record, 'check-run');
  return outputOfRecord(deps, record, { workflowRunUrl: parsed.data.detailsUrl });
}

import { canonicalJson, sha256Digest } from '../receipts/canonical.js';
import { ciProofOf, type GateScope } from '../receipts/ci-proof.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { revocationOf } from '../receipts/record-state.js';
import { isStoreUnavailable } from '../storage/unavailable.js';
import type { ReceiptsAppDeps } from './deps.js';
import {
  EnvironmentPolicy,
  evaluateDeployment,
  policyFor,
  type GateDecision,
  type GateReceipt,
} from './deployment-policy.js';
import { verifyPageUrl } from './output.js';
import { REPO_CONFIG_PATH, type RepoConfigResult } from './repo-config.js';

/**
 * The deployment gate's judgement: the environment's policy, which receipts count, and the
 * words of the answer. Everything that goes wrong here rejects (fail closed).
 */

/** The gate's repository, commit, installation and tenant (`GateScope`), and what it asks. */
export interface GateRequest extends GateScope {
  environment: string;
  requestedAt: Date;
}

export type GatePolicy =
  | { kind: 'not-gated' }
  | { kind: 'invalid'; message: string }
  | { kind: 'policy'; policy: EnvironmentPolicy; hash: string };

/** The environment's policy from the repository's configuration, with its hash. */
export function gatePolicyOf(config: RepoConfigResult, environment: string): GatePolicy {
  if (!config.ok) return { kind: 'invalid', message: config.message };
  const policy = policyFor(config.config.deployments, environment);
  if (!policy) return { kind: 'not-gated' };
  return { kind: 'policy', policy, hash: sha256Digest(canonicalJson(policy)) };
}

/** A stored policy read back: anything that no longer parses is invalid (fail closed). */
export function storedPolicy(value: unknown, hash: string | undefined): GatePolicy {
  const parsed = EnvironmentPolicy.safeParse(value);
  if (!parsed.success || !hash) {
    return { kind: 'invalid', message: 'the stored policy of this deployment is unreadable' };
  }
  return { kind: 'policy', policy: parsed.data, hash };
}

/** The runner a receipt proves: the token's claim, else the hardened profile's ci.runner check. */
function runnerOf(record: ReceiptRecord, claim: unknown): string | undefined {
  if (typeof claim === 'string') return claim;
  const check = record.receipt.checks.find((c) => c.checkId === 'ci.runner');
  if (check?.status === 'PASS') return 'github-hosted';
  if (check?.details?.startsWith('the run used a self-hosted runner')) return 'self-hosted';
  return undefined;
}

async function gateReceiptOf(deps: ReceiptsAppDeps, record: ReceiptRecord): Promise<GateReceipt> {
  const subject = record.receipt.subject as { identity?: Record<string, unknown> };
  const identity = subject.identity ?? {};
  const proof = ciProofOf(record.receipt);
  const intact = await deps.receipts.assertIntact(record, 'deployment-gate').then(
    () => true,
    () => false,
  );
  return {
    id: record.id,
    receiptHash: record.receipt.receiptHash,
    createdAt: record.createdAt,
    profile: record.receipt.policyProfile,
    decision: record.receipt.decision,
    revoked: revocationOf(record).revoked,
    intact,
    identitySource: proof?.source,
    workflowRef:
      proof?.source === 'oidc' && typeof identity.workflow_ref === 'string'
        ? identity.workflow_ref
        : undefined,
    runnerEnvironment: runnerOf(record, identity.runner_environment),
  };
}

/** Only the receipts that prove a run of this repository count (`countsForGate`). */
async function countingReceipts(deps: ReceiptsAppDeps, request: GateRequest) {
  const records = await deps.receipts.gateReceipts(request);
  return Promise.all(records.map((record) => gateReceiptOf(deps, record)));
}

/** The decision under the policy now; an invalid policy or any failure rejects. */
export async function judgeDeployment(
  deps: ReceiptsAppDeps,
  policy: GatePolicy,
  request: GateRequest,
  now: Date = new Date(),
): Promise<GateDecision> {
  if (policy.kind === 'not-gated') throw new Error('an ungated environment is not judged');
  if (policy.kind === 'invalid') return { state: 'rejected', reason: policy.message };
  try {
    const receipts = await countingReceipts(deps, request);
    return evaluateDeployment(policy.policy, receipts, { now, requestedAt: request.requestedAt });
  } catch (err) {
    const reason = isStoreUnavailable(err)
      ? 'the receipt store is unavailable'
      : 'the receipt service could not evaluate the policy (internal error)';
    return { state: 'rejected', reason };
  }
}

/** One or two sentences for GitHub's deployment log, linking the receipt relied on. */
export function commentOf(
  deps: Pick<ReceiptsAppDeps, 'publicUrl'>,
  environment: string,
  decision: GateDecision,
): string {
  const verdict = decision.state === 'approved' ? 'Approved' : 'Rejected';
  const text = `${verdict} by the ${environment} policy of ${REPO_CONFIG_PATH}: ${decision.reason}.`;
  const receipt = 'receipt' in decision ? decision.receipt : undefined;
  if (!receipt || !deps.publicUrl) return text;
  return `${text} Verify: ${verifyPageUrl(deps.publicUrl, receipt.receiptHash)}`;
}

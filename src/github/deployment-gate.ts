import type { ReceiptRecord } from '../receipts/ports.js';
import { revocationOf } from '../receipts/record-state.js';
import { isStoreUnavailable } from '../storage/unavailable.js';
import type { ReceiptsAppDeps } from './deps.js';
import {
  evaluateDeployment,
  policyFor,
  type GateDecision,
  type GateReceipt,
} from './deployment-policy.js';
import { verifyPageUrl } from './output.js';
import { REPO_CONFIG_PATH, type RepoConfigResult } from './repo-config.js';

/**
 * The deployment gate's decision for one deployment: which receipts count, the policy, and the
 * words of the answer. Everything that goes wrong here rejects (fail closed).
 */

export interface GateRequest {
  /** `owner/repo`. */
  repository: string;
  environment: string;
  sha: string;
  /** The installation's tenant: its App receipts count; other tenants' only when OIDC-proven. */
  tenant: string;
  requestedAt: Date;
  /** Whether a decision may stay pending (else no matching receipt rejects at once). */
  canWait: boolean;
}

export type GateOutcome = { state: 'not-gated' } | (GateDecision & { comment: string });

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
    identitySource: typeof identity.source === 'string' ? identity.source : undefined,
    workflowRef: typeof identity.workflow_ref === 'string' ? identity.workflow_ref : undefined,
    runnerEnvironment: runnerOf(record, identity.runner_environment),
  };
}

/** The installation's own receipts, and any tenant's whose OIDC token proves the run. */
async function countingReceipts(deps: ReceiptsAppDeps, request: GateRequest) {
  const records = await deps.receipts.ciReceiptsForCommit(request.repository, request.sha);
  const trusted = records.filter((record) => {
    const source = (record.receipt.subject as { identity?: { source?: unknown } }).identity?.source;
    return record.tenant === request.tenant || source === 'oidc';
  });
  return Promise.all(trusted.map((record) => gateReceiptOf(deps, record)));
}

function commentOf(deps: ReceiptsAppDeps, request: GateRequest, decision: GateDecision): string {
  const verdict =
    decision.state === 'approved'
      ? 'Approved'
      : decision.state === 'rejected'
        ? 'Rejected'
        : 'Waiting';
  const text = `${verdict} by the ${request.environment} policy of ${REPO_CONFIG_PATH}: ${decision.reason}.`;
  const receipt = 'receipt' in decision ? decision.receipt : undefined;
  if (!receipt || !deps.publicUrl) return text;
  return `${text} Verify: ${verifyPageUrl(deps.publicUrl, receipt.receiptHash)}`;
}

/** Decides the deployment under the repository's configuration (already read). */
export async function decideDeployment(
  deps: ReceiptsAppDeps,
  config: RepoConfigResult,
  request: GateRequest,
  now: Date = new Date(),
): Promise<GateOutcome> {
  if (!config.ok) {
    return { state: 'rejected', reason: config.message, comment: `Rejected: ${config.message}.` };
  }
  const policy = policyFor(config.config.deployments, request.environment);
  if (!policy) return { state: 'not-gated' };
  let decision: GateDecision;
  try {
    const receipts = await countingReceipts(deps, request);
    decision = evaluateDeployment(policy, receipts, { now, requestedAt: request.requestedAt });
    if (decision.state === 'pending' && !request.canWait) {
      decision = { state: 'rejected', reason: decision.reason };
    }
  } catch (err) {
    const reason = isStoreUnavailable(err)
      ? 'the receipt store is unavailable'
      : 'the receipt service could not evaluate the policy (internal error)';
    decision = { state: 'rejected', reason };
  }
  return { ...decision, comment: commentOf(deps, request, decision) };
}

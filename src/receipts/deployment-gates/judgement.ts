import { canonicalJson, sha256Digest } from '../canonical.js';
import { ciProofOf, type GateScope } from '../ci-proof.js';
import type { ReceiptUse } from '../intact.js';
import type { ReceiptRecord } from '../ports.js';
import { revocationOf } from '../record-state.js';
import {
  EnvironmentPolicy,
  evaluateDeployment,
  policyFor,
  type DeploymentsPolicy,
  type GateDecision,
  type GateReceipt,
} from './policy.js';

/**
 * The deployment gate's judgement: the environment's policy, which receipts count, and the
 * decision. Everything that goes wrong here rejects (fail closed).
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

/** The repository's configuration as read: its `deployments` policies, or why it is unreadable. */
export type GateConfig =
  | { ok: true; config: { deployments?: DeploymentsPolicy | undefined } }
  | { ok: false; message: string };

/** What the judgement reads of the receipts (ReceiptService). */
export interface GateReceiptSource {
  /** The receipts that count for the gate (`countsForGate`), newest first. */
  gateReceipts(gate: GateScope): Promise<ReceiptRecord[]>;
  /** Rejects a stored receipt that later verification would not accept. */
  assertIntact(record: ReceiptRecord, use: ReceiptUse): Promise<ReceiptRecord>;
}

export interface JudgementDeps {
  receipts: GateReceiptSource;
  /** True when an error means the store cannot be reached right now. */
  storeUnavailable(err: unknown): boolean;
}

/** The environment's policy from the repository's configuration, with its hash. */
export function gatePolicyOf(config: GateConfig, environment: string): GatePolicy {
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

async function gateReceiptOf(
  receipts: GateReceiptSource,
  record: ReceiptRecord,
): Promise<GateReceipt> {
  const subject = record.receipt.subject as { identity?: Record<string, unknown> };
  const identity = subject.identity ?? {};
  const proof = ciProofOf(record.receipt);
  const intact = await receipts.assertIntact(record, 'deployment-gate').then(
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
async function countingReceipts(receipts: GateReceiptSource, request: GateRequest) {
  const records = await receipts.gateReceipts(request);
  return Promise.all(records.map((record) => gateReceiptOf(receipts, record)));
}

/** The decision under the policy now; an invalid policy or any failure rejects. */
export async function judgeDeployment(
  deps: JudgementDeps,
  policy: GatePolicy,
  request: GateRequest,
  now: Date = new Date(),
): Promise<GateDecision> {
  if (policy.kind === 'not-gated') throw new Error('an ungated environment is not judged');
  if (policy.kind === 'invalid') return { state: 'rejected', reason: policy.message };
  try {
    const receipts = await countingReceipts(deps.receipts, request);
    return evaluateDeployment(policy.policy, receipts, { now, requestedAt: request.requestedAt });
  } catch (err) {
    const reason = deps.storeUnavailable(err)
      ? 'the receipt store is unavailable'
      : 'the receipt service could not evaluate the policy (internal error)';
    return { state: 'rejected', reason };
  }
}

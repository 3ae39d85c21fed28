import { randomUUID } from 'node:crypto';
import type { Context } from 'probot';
import { signDeploymentDecision } from '../receipts/deployment-decision.js';
import type { DeploymentGate, NewDeploymentGate } from '../receipts/ports.js';
import { answerDeployment } from './deployment-callback.js';
import {
  commentOf,
  judgeDeployment,
  storedPolicy,
  type GatePolicy,
  type GateRequest,
} from './deployment-gate.js';
import type { GateDecision } from './deployment-policy.js';
import type { ReceiptsAppDeps } from './deps.js';
import { writeGateCheck } from './gate-check.js';

/**
 * The life of a gated deployment: opened by the webhook (leased to the replica that received
 * it), answered at once when it can be decided, else left pending in the store and decided by
 * the sweeper when a matching receipt exists or the policy's wait has passed. Only the lease
 * holder answers GitHub, and only a pending gate is finished, so each is decided once.
 */

type Octokit = Context['octokit'];
type FinalDecision = Exclude<GateDecision, { state: 'pending' }>;

/** How long a replica holds a gate while it judges and answers it. */
export const GATE_LEASE_MS = 60_000;
const MAX_BACKOFF_MS = 10 * 60_000;

/** 5 s, 10 s, 20 s, ... up to 10 min after each refused answer. */
export function answerBackoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.min(attempts, 20), MAX_BACKOFF_MS);
}

/** What the store keeps of the policy: the environment's policy, or why it is invalid. */
function policyColumns(policy: GatePolicy): Pick<NewDeploymentGate, 'policy' | 'policyHash'> {
  if (policy.kind === 'policy') return { policy: policy.policy, policyHash: policy.hash };
  return {
    policy: { invalid: policy.kind === 'invalid' ? policy.message : '' },
    policyHash: undefined,
  };
}

function policyOfGate(gate: DeploymentGate): GatePolicy {
  const invalid = (gate.policy as { invalid?: unknown } | undefined)?.invalid;
  if (typeof invalid === 'string') return { kind: 'invalid', message: invalid };
  return storedPolicy(gate.policy, gate.policyHash);
}

/** Answers GitHub, then records the signed decision; a refused answer is retried later. */
async function settle(
  deps: ReceiptsAppDeps,
  octokit: Octokit,
  gate: NewDeploymentGate & { attempts: number },
  decision: FinalDecision,
  log: Context['log'],
): Promise<void> {
  const [owner = '', repo = ''] = gate.repository.split('/');
  const comment = commentOf(deps, gate.environment, decision);
  try {
    await answerDeployment(
      octokit,
      { owner, repo, callbackUrl: gate.callbackUrl },
      { environment: gate.environment, state: decision.state, comment },
    );
  } catch (err) {
    const retryAt = new Date(Date.now() + answerBackoffMs(gate.attempts));
    log.warn({ err, gate: gate.id, retryAt }, 'deployment answer not accepted: retrying later');
    await deps.gates.release(gate.id, retryAt, true);
    return;
  }
  const decidedAt = new Date();
  const record = signDeploymentDecision(
    {
      type: 'verification-receipt-deployment-decision/v1',
      gateId: gate.id,
      repository: gate.repository,
      environment: gate.environment,
      sha: gate.sha,
      state: decision.state,
      reason: decision.reason,
      ...(gate.policyHash ? { policyHash: gate.policyHash } : {}),
      receipts: decision.receipt
        ? [{ receiptId: decision.receipt.id, receiptHash: decision.receipt.receiptHash }]
        : [],
      requestedAt: gate.requestedAt.toISOString(),
      decidedAt: decidedAt.toISOString(),
    },
    deps.signer,
  );
  await deps.gates.finish(gate.id, { ...decision, record, at: decidedAt });
  log.info({ gate: gate.id, state: decision.state, reason: decision.reason }, 'deployment decided');
  await writeGateCheck(deps, octokit, log, gate, decision);
}

/** The webhook's part: open the gate, and answer now unless it must wait for its receipt. */
export async function requestGate(
  deps: ReceiptsAppDeps,
  octokit: Octokit,
  log: Context['log'],
  request: GateRequest & { callbackUrl: string; deploymentId: number },
  policy: GatePolicy,
): Promise<void> {
  const gate: NewDeploymentGate = { id: randomUUID(), ...request, ...policyColumns(policy) };
  const opened = await deps.gates.open(gate, new Date(Date.now() + GATE_LEASE_MS));
  if (!opened) {
    log.info({ environment: gate.environment }, 'deployment already requested: not decided again');
    return;
  }
  const decision = await judgeDeployment(deps, policy, request);
  if (decision.state === 'pending') {
    log.info({ gate: gate.id, reason: decision.reason }, 'deployment pending');
    await deps.gates.release(gate.id, null, false);
    return;
  }
  await settle(deps, octokit, { ...gate, attempts: 0 }, decision, log);
}

export interface GateSweeperDeps {
  installationOctokit(installationId: number): Promise<Octokit>;
  log: Context['log'];
}

/** Decides the pending gates whose lease is free: a receipt arrived, or the wait is over. */
export async function sweepGates(deps: ReceiptsAppDeps, sweeper: GateSweeperDeps): Promise<void> {
  const now = new Date();
  const due = await deps.gates.claimDue(now, new Date(now.getTime() + GATE_LEASE_MS), 20);
  for (const gate of due) {
    try {
      const decision = await judgeDeployment(deps, policyOfGate(gate), gate, now);
      if (decision.state === 'pending') {
        await deps.gates.release(gate.id, null, false);
        continue;
      }
      const octokit = await sweeper.installationOctokit(gate.installationId);
      await settle(deps, octokit, gate, decision, sweeper.log);
    } catch (err) {
      sweeper.log.error({ err, gate: gate.id }, 'pending deployment not decided: retrying later');
      await deps.gates
        .release(gate.id, new Date(Date.now() + answerBackoffMs(gate.attempts)), true)
        .catch(() => undefined);
    }
  }
}

/** Sweeps every `intervalMs` until stopped; one sweep at a time. */
export function startGateSweeper(
  deps: ReceiptsAppDeps,
  sweeper: GateSweeperDeps,
  intervalMs: number,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepGates(deps, sweeper)
      .catch((err: unknown) => sweeper.log.error({ err }, 'deployment gate sweep failed'))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

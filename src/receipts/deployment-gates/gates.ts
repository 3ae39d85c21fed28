import { randomUUID } from 'node:crypto';
import type { DeploymentGate, DeploymentGatePage, DeploymentGateStore } from '../ports.js';
import type { NewDeploymentGate } from '../ports.js';
import type { Signer } from '../signer.js';
import { DEPLOYMENT_DECISION_TYPE, signDeploymentDecision } from './decision-record.js';
import {
  judgeDeployment,
  storedPolicy,
  type GatePolicy,
  type GateRequest,
  type JudgementDeps,
} from './judgement.js';
import type { FinalDecision, GateAnswerer, GateLog, OpenGate } from './ports.js';

/**
 * The life of a gated deployment: opened when it is requested (leased to the replica that
 * received it), answered at once when it can be decided, else left pending in the store and
 * decided by the sweeper when a matching receipt exists or the policy's wait has passed. Only
 * the lease holder answers, and only a pending gate is finished, so each is decided once.
 */

/** How long a replica holds a gate while it judges and answers it. */
export const GATE_LEASE_MS = 60_000;
const MAX_BACKOFF_MS = 10 * 60_000;
/** Pending gates one sweep claims at most. */
const SWEEP_BATCH = 20;

/** 5 s, 10 s, 20 s, ... up to 10 min after each refused answer. */
export function answerBackoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.min(attempts, 20), MAX_BACKOFF_MS);
}

export interface DeploymentGateDeps extends JudgementDeps {
  gates: DeploymentGateStore;
  /** Signs decision records; undefined when SIGNING_DISABLED (the record is then unsigned). */
  signer: Signer | undefined;
}

/** A gated deployment as requested: the scope, the callback and GitHub's deployment id. */
export type GateOpening = GateRequest & { callbackUrl: string; deploymentId: number };

/** Where a claimed gate is answered (its installation's client), told per gate. */
export type AnswererOf = (gate: DeploymentGate) => Promise<GateAnswerer>;

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

/** The deployment gate's use cases: request, sweep, and the decisions' list. */
export class DeploymentGates {
  constructor(private readonly deps: DeploymentGateDeps) {}

  /** A deployment asked for: open the gate, and answer now unless it must wait for a receipt. */
  async request(
    request: GateOpening,
    policy: GatePolicy,
    answerer: GateAnswerer,
    log: GateLog,
  ): Promise<void> {
    const gate: NewDeploymentGate = { id: randomUUID(), ...request, ...policyColumns(policy) };
    const opened = await this.deps.gates.open(gate, new Date(Date.now() + GATE_LEASE_MS));
    if (!opened) {
      log.info(
        { environment: gate.environment },
        'deployment already requested: not decided again',
      );
      return;
    }
    const decision = await judgeDeployment(this.deps, policy, request);
    if (decision.state === 'pending') {
      log.info({ gate: gate.id, reason: decision.reason }, 'deployment pending');
      await this.deps.gates.release(gate.id, null, false);
      return;
    }
    await this.settle(answerer, { ...gate, attempts: 0 }, decision, log);
  }

  /** Decides the pending gates whose lease is free: a receipt arrived, or the wait is over. */
  async sweep(answererOf: AnswererOf, log: GateLog): Promise<void> {
    const { gates } = this.deps;
    const now = new Date();
    const due = await gates.claimDue(now, new Date(now.getTime() + GATE_LEASE_MS), SWEEP_BATCH);
    for (const gate of due) {
      try {
        const decision = await judgeDeployment(this.deps, policyOfGate(gate), gate, now);
        if (decision.state === 'pending') {
          await gates.release(gate.id, null, false);
          continue;
        }
        await this.settle(await answererOf(gate), gate, decision, log);
      } catch (err) {
        log.error({ err, gate: gate.id }, 'pending deployment not decided: retrying later');
        await gates
          .release(gate.id, new Date(Date.now() + answerBackoffMs(gate.attempts)), true)
          .catch(() => undefined);
      }
    }
  }

  /** Sweeps every `intervalMs` until stopped; one sweep at a time. */
  startSweeper(answererOf: AnswererOf, log: GateLog, intervalMs: number): () => Promise<void> {
    let running: Promise<void> | undefined;
    const timer = setInterval(() => {
      if (running) return;
      running = this.sweep(answererOf, log)
        .catch((err: unknown) => log.error({ err }, 'deployment gate sweep failed'))
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

  /** GET /deployments: the tenant's decided gates of a repository, newest first, keyset-paged. */
  decided(
    tenant: string,
    repository: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<DeploymentGatePage> {
    return this.deps.gates.listDecided(tenant, repository, limit, cursor);
  }

  /** Answers, then records the signed decision; a refused answer is retried later. */
  private async settle(
    answerer: GateAnswerer,
    gate: OpenGate & { attempts: number },
    decision: FinalDecision,
    log: GateLog,
  ): Promise<void> {
    try {
      await answerer.answer(gate, decision);
    } catch (err) {
      const retryAt = new Date(Date.now() + answerBackoffMs(gate.attempts));
      log.warn({ err, gate: gate.id, retryAt }, 'deployment answer not accepted: retrying later');
      await this.deps.gates.release(gate.id, retryAt, true);
      return;
    }
    const decidedAt = new Date();
    const record = signDeploymentDecision(
      {
        type: DEPLOYMENT_DECISION_TYPE,
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
      this.deps.signer,
    );
    await this.deps.gates.finish(gate.id, { ...decision, record, at: decidedAt });
    log.info(
      { gate: gate.id, state: decision.state, reason: decision.reason },
      'deployment decided',
    );
    await answerer.show(gate, decision);
  }
}

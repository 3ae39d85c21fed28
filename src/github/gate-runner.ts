import type { Context } from 'probot';
import type { DeploymentGate } from '../receipts/ports.js';
import type { GateOpening } from '../receipts/deployment-gates/gates.js';
import type { GatePolicy } from '../receipts/deployment-gates/judgement.js';
import type { GateDecision } from '../receipts/deployment-gates/policy.js';
import type { GateAnswerer } from '../receipts/deployment-gates/ports.js';
import { answerDeployment } from './deployment-callback.js';
import type { ReceiptsAppDeps } from './deps.js';
import { writeGateCheck } from './gate-check.js';
import { verifyPageUrl } from './output.js';
import { REPO_CONFIG_PATH } from './repo-config.js';

/**
 * The GitHub side of the deployment gate (`src/receipts/deployment-gates/`): the domain decides;
 * this answers GitHub through the installation's client, by the one module that answers a
 * deployment protection rule (`deployment-callback.ts`) and the one that writes check runs
 * (`gate-check.ts` through `check-run.ts`).
 */

type Octokit = Context['octokit'];

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

/** Answers through `octokit`: the protection rule's callback, then the decision's check run. */
export function gateAnswerer(
  deps: Pick<ReceiptsAppDeps, 'appId' | 'publicUrl'>,
  octokit: Octokit,
  log: Context['log'],
): GateAnswerer {
  return {
    async answer(gate, decision) {
      const [owner = '', repo = ''] = gate.repository.split('/');
      await answerDeployment(
        octokit,
        { owner, repo, callbackUrl: gate.callbackUrl },
        {
          environment: gate.environment,
          state: decision.state,
          comment: commentOf(deps, gate.environment, decision),
        },
      );
    },
    show: (gate, decision) => writeGateCheck(deps, octokit, log, gate, decision),
  };
}

/** The webhook's part: the domain opens the gate and answers now unless it must wait. */
export function requestGate(
  deps: ReceiptsAppDeps,
  octokit: Octokit,
  log: Context['log'],
  request: GateOpening,
  policy: GatePolicy,
): Promise<void> {
  return deps.gates.request(request, policy, gateAnswerer(deps, octokit, log), log);
}

export interface GateSweeperDeps {
  installationOctokit(installationId: number): Promise<Octokit>;
  log: Context['log'];
}

/** Each claimed gate is answered with its installation's client. */
function answererOf(deps: ReceiptsAppDeps, sweeper: GateSweeperDeps) {
  return async (gate: DeploymentGate): Promise<GateAnswerer> =>
    gateAnswerer(deps, await sweeper.installationOctokit(gate.installationId), sweeper.log);
}

/** Decides the pending gates whose lease is free: a receipt arrived, or the wait is over. */
export function sweepGates(deps: ReceiptsAppDeps, sweeper: GateSweeperDeps): Promise<void> {
  return deps.gates.sweep(answererOf(deps, sweeper), sweeper.log);
}

/** Sweeps every `intervalMs` until stopped; one sweep at a time. */
export function startGateSweeper(
  deps: ReceiptsAppDeps,
  sweeper: GateSweeperDeps,
  intervalMs: number,
): () => Promise<void> {
  return deps.gates.startSweeper(answererOf(deps, sweeper), sweeper.log, intervalMs);
}

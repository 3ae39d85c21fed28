import type { Context } from 'probot';
import { absoluteUrl, API_PREFIX } from '../contract/links.js';
import { completeCheckRun } from './check-run.js';
import type { FinalDecision } from '../receipts/deployment-gates/ports.js';
import type { ReceiptsAppDeps } from './deps.js';
import { verifyPageUrl, type CheckOutput } from './output.js';
import { REPO_CONFIG_PATH } from './repo-config.js';

/**
 * The gate's decision shown on the deployment's commit: a check run `Deployment gate: <env>`
 * (success for approved, failure for rejected) whose summary says the decision, why, the receipt
 * relied on, the policy hash and where the signed decision record is. Written through the one
 * check-run helper after GitHub has the answer: a refused write is logged, never un-decides.
 */

export interface DecidedGate {
  id: string;
  repository: string;
  environment: string;
  sha: string;
  policyHash?: string | undefined;
}

export const gateCheckName = (environment: string): string =>
  `Deployment gate: ${environment}`.slice(0, 120);

/** A value inside a Markdown line: no line breaks, no backticks. */
const inline = (text: string): string => text.replace(/[\r\n]+/g, ' ').replace(/`/g, "'");

function receiptLine(publicUrl: string | undefined, decision: FinalDecision): string {
  const receipt = decision.receipt;
  if (!receipt) return '**Receipts relied on:** none';
  const hash = `\`${receipt.receiptHash}\``;
  const link = publicUrl ? ` · [verify](${verifyPageUrl(publicUrl, receipt.receiptHash)})` : '';
  return `**Receipts relied on:** receipt \`${receipt.id}\`, hash ${hash}${link}`;
}

export function gateCheckOutput(
  publicUrl: string | undefined,
  gate: DecidedGate,
  decision: FinalDecision,
): CheckOutput {
  const approved = decision.state === 'approved';
  const records = absoluteUrl(
    publicUrl,
    `${API_PREFIX}/deployments?repository=${encodeURIComponent(gate.repository)}`,
  );
  const recordLine = publicUrl
    ? `**Signed decision record:** [${API_PREFIX}/deployments](${records}) (decision \`${gate.id}\`, read key of the installation's tenant)`
    : `**Signed decision record:** \`GET ${records}\` (decision \`${gate.id}\`)`;
  return {
    conclusion: approved ? 'success' : 'failure',
    title: `Deployment to ${inline(gate.environment)} ${approved ? 'approved' : 'rejected'}`,
    summary: [
      `**Decision:** ${decision.state} by the \`${inline(gate.environment)}\` policy of \`${REPO_CONFIG_PATH}\``,
      `**Why:** ${inline(decision.reason)}`,
      receiptLine(publicUrl, decision),
      `**Policy hash:** \`${gate.policyHash ?? 'none (the policy is invalid)'}\``,
      recordLine,
    ].join('\n\n'),
    ...(decision.receipt && publicUrl
      ? { detailsUrl: verifyPageUrl(publicUrl, decision.receipt.receiptHash) }
      : {}),
  };
}

/** Writes the decision's check run; a failure is logged only (the deployment is answered). */
export async function writeGateCheck(
  deps: Pick<ReceiptsAppDeps, 'appId' | 'publicUrl'>,
  octokit: Context['octokit'],
  log: Context['log'],
  gate: DecidedGate,
  decision: FinalDecision,
): Promise<void> {
  const [owner = '', repo = ''] = gate.repository.split('/');
  try {
    await completeCheckRun(
      { octokit, appId: deps.appId, log },
      {
        owner,
        repo,
        headSha: gate.sha,
        name: gateCheckName(gate.environment),
        externalId: `deployment-gate:${gate.id}`,
      },
      async () => gateCheckOutput(deps.publicUrl, gate, decision),
    );
  } catch (err) {
    log.error({ err, gate: gate.id }, 'deployment decided, but its check run was not written');
  }
}

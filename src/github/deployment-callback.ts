import type { Context } from 'probot';

/**
 * The only module that answers a deployment protection rule (`POST deployment_callback_url`,
 * GitHub's "review custom deployment protection rules for a workflow run"). The callback URL
 * comes from the webhook: only the API path GitHub documents for it, on this repository, is
 * called, through the installation's Octokit, so the installation token never goes elsewhere.
 */

export interface GateAnswer {
  environment: string;
  state: 'approved' | 'rejected';
  comment: string;
}

export interface GateTarget {
  owner: string;
  repo: string;
  callbackUrl: string;
}

const CALLBACK_PATH =
  /^\/repos\/([^/]+)\/([^/]+)\/actions\/runs\/([0-9]{1,20})\/deployment_protection_rule$/;

/** The workflow run the callback URL names, or undefined when it is not one of this repository. */
export function callbackRunId(target: GateTarget, apiBaseUrl: string): number | undefined {
  let url: URL;
  try {
    url = new URL(target.callbackUrl);
  } catch {
    return undefined;
  }
  const base = new URL(apiBaseUrl);
  if (url.origin !== base.origin || url.search || url.hash) return undefined;
  const prefix = base.pathname.replace(/\/$/, '');
  if (!url.pathname.startsWith(`${prefix}/`)) return undefined;
  const match = CALLBACK_PATH.exec(url.pathname.slice(prefix.length));
  if (!match || match[1]?.toLowerCase() !== target.owner.toLowerCase()) return undefined;
  if (match[2]?.toLowerCase() !== target.repo.toLowerCase()) return undefined;
  return Number(match[3]);
}

/** GitHub's comment limit is not documented for this call: keep it short and bounded. */
const MAX_COMMENT = 1024;

/** The run the callback names, or an error when it is not one of this repository's runs. */
export function requireCallbackRun(octokit: Context['octokit'], target: GateTarget): number {
  const runId = callbackRunId(target, octokit.request.endpoint.DEFAULTS.baseUrl);
  if (runId === undefined) {
    throw new Error(
      'deployment_callback_url is not a deployment protection rule of this repository',
    );
  }
  return runId;
}

/** Sends the answer; throws when the callback URL is not this repository's run (never sent). */
export async function answerDeployment(
  octokit: Context['octokit'],
  target: GateTarget,
  answer: GateAnswer,
): Promise<void> {
  const runId = requireCallbackRun(octokit, target);
  await octokit.rest.actions.reviewCustomGatesForRun({
    owner: target.owner,
    repo: target.repo,
    run_id: runId,
    environment_name: answer.environment,
    state: answer.state,
    comment: answer.comment.slice(0, MAX_COMMENT),
  });
}

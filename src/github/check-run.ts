import type { Context } from 'probot';
import { isServiceError, ServiceError } from '../errors.js';
import { isStoreUnavailable } from '../storage/unavailable.js';
import { failClosedOutput, IN_PROGRESS_OUTPUT, type CheckOutput } from './output.js';

/**
 * The only module that writes check runs (`checks.create` / `checks.update`). A check run is
 * found again by its `external_id` (the adapter externalId), so redelivered or out-of-order
 * webhooks update the same check run instead of adding one, and a completed one is never
 * moved back to in_progress.
 */

export const CHECK_NAME_PREFIX = 'Verification receipt';

export function checkNameOf(workflowName: string): string {
  return `${CHECK_NAME_PREFIX}: ${workflowName}`.slice(0, 120);
}

export interface CheckTarget {
  owner: string;
  repo: string;
  headSha: string;
  name: string;
  externalId: string;
}

export interface CheckClient {
  octokit: Context['octokit'];
  appId: number;
  log: Context['log'];
}

/** An error whose message is meant for the check run (no internals in it). */
export class SafeCheckError extends ServiceError<'check_run_refused'> {
  override name = 'SafeCheckError';
  constructor(message: string) {
    super('check_run_refused', message);
  }
}

/** This app's check runs for the target (normally at most one; see completeCheckRun). */
async function findCheckRuns(client: CheckClient, target: CheckTarget) {
  const { data } = await client.octokit.rest.checks.listForRef({
    owner: target.owner,
    repo: target.repo,
    ref: target.headSha,
    check_name: target.name,
    app_id: client.appId,
    filter: 'all',
    per_page: 100,
  });
  return data.check_runs.filter((run) => run.external_id === target.externalId);
}

/** Creates the in_progress check run unless this run already has one (in any state). */
export async function startCheckRun(client: CheckClient, target: CheckTarget): Promise<void> {
  if ((await findCheckRuns(client, target)).length > 0) return;
  await client.octokit.rest.checks.create({
    owner: target.owner,
    repo: target.repo,
    name: target.name,
    head_sha: target.headSha,
    external_id: target.externalId,
    status: 'in_progress',
    started_at: new Date().toISOString(),
    output: IN_PROGRESS_OUTPUT,
  });
}

/** The safe words for a failed verification; the error itself goes to the log only. */
export function failClosedReason(err: unknown): string {
  if (err instanceof SafeCheckError) return err.message;
  if (isStoreUnavailable(err)) return 'the receipt store is unavailable.';
  if (isServiceError(err) && err.code === 'receipt_integrity_failed') {
    return 'the stored receipt no longer verifies (hash or signature), so it is not reported.';
  }
  return 'the receipt service could not issue a receipt (internal error).';
}

/**
 * Runs `verify` and completes the target's check run with its output. Fails closed: if
 * `verify` throws, the check run is completed as `failure` with a safe reason. Every check run
 * found for the target is completed: `requested` and `in_progress` delivered at the same moment
 * can both create one, and neither may stay in progress.
 */
export async function completeCheckRun(
  client: CheckClient,
  target: CheckTarget,
  verify: () => Promise<CheckOutput>,
): Promise<CheckOutput> {
  let output: CheckOutput;
  try {
    output = await verify();
  } catch (err) {
    client.log.error({ err, externalId: target.externalId }, 'verification failed: failing closed');
    output = failClosedOutput(failClosedReason(err));
  }
  await writeCompleted(client, target, output);
  return output;
}

async function writeCompleted(client: CheckClient, target: CheckTarget, output: CheckOutput) {
  const { owner, repo } = target;
  const fields = {
    status: 'completed' as const,
    conclusion: output.conclusion,
    completed_at: new Date().toISOString(),
    ...(output.detailsUrl ? { details_url: output.detailsUrl } : {}),
    output: { title: output.title, summary: output.summary },
  };
  const existing = await findCheckRuns(client, target);
  for (const run of existing) {
    await client.octokit.rest.checks.update({ owner, repo, check_run_id: run.id, ...fields });
  }
  if (existing.length === 0) {
    await client.octokit.rest.checks.create({
      owner,
      repo,
      name: target.name,
      head_sha: target.headSha,
      external_id: target.externalId,
      ...fields,
    });
  }
}

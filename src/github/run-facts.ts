import type { CiRunFacts } from '../receipts/checks/ci-run.js';
import type { CiRunFactsSource } from '../receipts/issuance.js';
import { runAttemptOf, type RepositoryLike, type WorkflowRunLike } from './workflow-run.js';

/** The jobs of a run attempt as GitHub's REST API lists them (only what is read). */
interface JobLike {
  labels: string[];
  runner_name?: string | null;
  runner_group_name?: string | null;
}

export interface JobsClient {
  rest: {
    actions: {
      listJobsForWorkflowRunAttempt(params: {
        owner: string;
        repo: string;
        run_id: number;
        attempt_number: number;
        per_page?: number;
      }): Promise<{ data: { total_count: number; jobs: JobLike[] } }>;
    };
  };
}

/**
 * Events whose run reads its workflow file from the branch named by `head_branch` (of the same
 * repository). For the others (pull requests, releases, workflow_run, ...) the webhook does not
 * say which ref the file came from.
 */
const BRANCH_EVENTS = new Set(['push', 'workflow_dispatch', 'schedule', 'merge_group']);

/** The runner group GitHub puts its own hosted runners in. */
const HOSTED_GROUP = 'GitHub Actions';

/**
 * Run facts on the GitHub App path, for ci-provenance-v2: the workflow ref and the default
 * branch from the signed webhook payload, the runner from the run attempt's jobs (one API call,
 * made only when the profile asks).
 */
export function appRunFacts(
  octokit: JobsClient,
  repository: RepositoryLike,
  run: WorkflowRunLike,
): CiRunFactsSource {
  return async (): Promise<CiRunFacts> => {
    const sameRepository = run.head_repository?.full_name === repository.full_name;
    const branchKnown = BRANCH_EVENTS.has(run.event) && sameRepository && !!run.head_branch;
    const { data } = await octokit.rest.actions.listJobsForWorkflowRunAttempt({
      owner: repository.owner.login,
      repo: repository.name,
      run_id: run.id,
      attempt_number: runAttemptOf(run),
      per_page: 100,
    });
    const runner = runnerOf(data.jobs, data.total_count);
    return {
      source: 'github-app',
      runnerEnvironment: runner.environment,
      workflowRef: branchKnown ? `refs/heads/${run.head_branch}` : undefined,
      defaultBranch: repository.default_branch ?? undefined,
      unknown: {
        runner: runner.unknownBecause,
        branch: branchKnown
          ? undefined
          : `a ${run.event} run${sameRepository ? '' : ' from another repository'} does not prove which ref its workflow came from`,
      },
    };
  };
}

/**
 * Hosted only when every job that got a runner ran in GitHub's hosted group, and every job of the
 * attempt was listed (one page of 100: a larger run is not proven hosted).
 */
function runnerOf(
  jobs: JobLike[],
  total: number,
): { environment?: string; unknownBecause?: string } {
  const assigned = jobs.filter((job) => job.runner_name);
  if (assigned.some((job) => job.labels.includes('self-hosted'))) {
    return { environment: 'self-hosted' };
  }
  if (total > jobs.length) {
    return { unknownBecause: `the run has ${total} jobs; only ${jobs.length} were listed` };
  }
  if (assigned.length === 0) return { unknownBecause: 'no job of the run was assigned a runner' };
  const other = assigned.find((job) => job.runner_group_name !== HOSTED_GROUP);
  return other
    ? {
        unknownBecause: `runner group ${JSON.stringify(other.runner_group_name ?? null)} is not GitHub's hosted group`,
      }
    : { environment: 'github-hosted' };
}

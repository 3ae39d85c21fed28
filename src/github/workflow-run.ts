import type { CiVerificationRequest } from '../contract/ci.js';

/**
 * What the app reads from a workflow run: the `workflow_run` webhook object and the REST
 * "get a workflow run attempt" answer both have these fields.
 */
export interface WorkflowRunLike {
  id: number;
  run_attempt?: number | undefined;
  run_number: number;
  name?: string | null | undefined;
  /** `.github/workflows/<file>`; absent from some older payloads. */
  path?: string | undefined;
  event: string;
  head_sha: string;
  html_url: string;
  conclusion: string | null;
  /** The branch the run is for (push, workflow_dispatch, schedule, ...). */
  head_branch?: string | null | undefined;
  /** The repository the head commit is in (a fork for pull requests from forks). */
  head_repository?: { full_name: string } | null | undefined;
}

export interface RepositoryLike {
  full_name: string;
  html_url: string;
  name: string;
  owner: { login: string };
  default_branch?: string | undefined;
}

/** Receipts made through an installation belong to this tenant, isolated like any API tenant. */
export function tenantOf(installationId: number): string {
  return `github-installation-${installationId}`;
}

export function runAttemptOf(run: WorkflowRunLike): number {
  return run.run_attempt ?? 1;
}

/**
 * The adapter `externalId` (idempotency key) and the check run's `external_id`:
 * `<owner>/<repo>/actions/runs/<run id>/attempts/<attempt>`, the path of the run attempt on
 * GitHub. A re-run of the check appends `/rerun/<id of the check run that was re-run>`.
 */
export function runExternalId(repositoryFullName: string, run: WorkflowRunLike): string {
  return `${repositoryFullName}/actions/runs/${run.id}/attempts/${runAttemptOf(run)}`;
}

const EXTERNAL_ID = /^([^/]+\/[^/]+\/actions\/runs\/(\d+)\/attempts\/(\d+))(?:\/rerun\/\d+)?$/;

export interface RunLink {
  /** The externalId of the original (not re-run) verification of the attempt. */
  base: string;
  runId: number;
  attempt: number;
}

/** The workflow run attempt a check run of this app verified, from its `external_id`. */
export function parseRunExternalId(externalId: string | null | undefined): RunLink | undefined {
  const match = EXTERNAL_ID.exec(externalId ?? '');
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { base: match[1], runId: Number(match[2]), attempt: Number(match[3]) };
}

export function rerunExternalId(link: RunLink, checkRunId: number): string {
  return `${link.base}/rerun/${checkRunId}`;
}

/** The workflow's display name, falling back to its file name. */
export function workflowNameOf(run: WorkflowRunLike): string {
  return run.name?.trim() || run.path?.split('/').pop() || `workflow run ${run.id}`;
}

/** Does a `workflows` entry of .github/receipts.yml name this run's workflow? */
export function workflowSelected(workflows: readonly string[] | undefined, run: WorkflowRunLike) {
  if (workflows === undefined) return true;
  const file = run.path?.split('@')[0] ?? '';
  const candidates = [run.name ?? '', file, file.split('/').pop() ?? ''].filter(Boolean);
  return workflows.some((entry) => candidates.includes(entry));
}

const MAX_SUMMARY = 4096;

/** The §2.13 adapter request for a workflow run, exactly what the HTTP endpoint accepts. */
export function adapterRequestOf(
  repository: RepositoryLike,
  run: WorkflowRunLike,
  externalId: string,
): CiVerificationRequest {
  const summary =
    `${workflowNameOf(run)} #${run.run_number} (attempt ${runAttemptOf(run)}), ` +
    `conclusion ${run.conclusion ?? 'none yet'}, triggered by ${run.event}`;
  return {
    externalId,
    headSha: run.head_sha,
    subject: { kind: 'workflow_run', summary: summary.slice(0, MAX_SUMMARY) },
    repository: { fullName: repository.full_name, htmlUrl: repository.html_url },
    provenance: { eventName: run.event },
    detailsUrl: run.html_url,
  };
}

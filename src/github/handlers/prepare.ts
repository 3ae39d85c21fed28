import type { Context } from 'probot';
import { checkNameOf, SafeCheckError, type CheckClient, type CheckTarget } from '../check-run.js';
import type { ReceiptsAppDeps } from '../deps.js';
import { readRepoConfig, type RepoConfig, type RepoConfigResult } from '../repo-config.js';
import {
  runExternalId,
  tenantOf,
  workflowNameOf,
  workflowSelected,
  type RepositoryLike,
  type WorkflowRunLike,
} from '../workflow-run.js';

export type WorkflowRunContext = Context<
  'workflow_run.requested' | 'workflow_run.in_progress' | 'workflow_run.completed'
>;

export interface PreparedRun {
  client: CheckClient;
  tenant: string;
  target: CheckTarget;
  config: RepoConfigResult;
  run: WorkflowRunLike;
  repository: RepositoryLike;
}

/**
 * Everything a workflow_run handler needs, or undefined when the app has nothing to do: no
 * installation in the payload, or a workflow that .github/receipts.yml does not select. An
 * unreadable or invalid config file is returned as such (the caller fails the check run).
 */
export async function prepareRun(
  context: WorkflowRunContext,
  deps: ReceiptsAppDeps,
): Promise<PreparedRun | undefined> {
  const { workflow_run: run, repository, installation } = context.payload;
  if (!installation) {
    context.log.warn('workflow_run event without an installation: ignored');
    return undefined;
  }
  const config = await readRepoConfig(context, deps.defaultTrustedEvents);
  if (config.ok && !workflowSelected(config.config.workflows, run)) {
    context.log.debug({ workflow: run.path }, 'workflow not selected by .github/receipts.yml');
    return undefined;
  }
  return {
    client: { octokit: context.octokit, appId: deps.appId, log: context.log },
    tenant: tenantOf(installation.id),
    target: {
      owner: repository.owner.login,
      repo: repository.name,
      headSha: run.head_sha,
      name: checkNameOf(workflowNameOf(run)),
      externalId: runExternalId(repository.full_name, run),
    },
    config,
    run,
    repository,
  };
}

/** The valid configuration, or a SafeCheckError carrying why it is not (fail closed). */
export function requireConfig(result: RepoConfigResult): RepoConfig {
  if (!result.ok) throw new SafeCheckError(result.message);
  return result.config;
}

import { completeCheckRun } from '../check-run.js';
import type { ReceiptsAppDeps } from '../deps.js';
import { issueForRun } from '../receipt-for-run.js';
import { appRunFacts } from '../run-facts.js';
import { adapterRequestOf } from '../workflow-run.js';
import { prepareRun, requireConfig, type WorkflowRunContext } from './prepare.js';

/**
 * `workflow_run.completed`: issue the run's receipt through the adapter path (idempotent per
 * run attempt) and complete the check run with the mapped conclusion; fail closed otherwise.
 */
export function onWorkflowRunCompleted(deps: ReceiptsAppDeps) {
  return async (context: WorkflowRunContext): Promise<void> => {
    const prepared = await prepareRun(context, deps);
    if (!prepared) return;
    const { client, tenant, target, config, run, repository } = prepared;
    await completeCheckRun(client, target, async () => {
      const repoConfig = requireConfig(config);
      const request = adapterRequestOf(repository, run, target.externalId);
      return issueForRun(deps, tenant, request, repoConfig, {
        installationId: context.payload.installation?.id ?? 0,
        runFacts: appRunFacts(context.octokit, repository, run),
      });
    });
  };
}

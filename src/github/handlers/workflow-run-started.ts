import { completeCheckRun, SafeCheckError, startCheckRun } from '../check-run.js';
import type { ReceiptsAppDeps } from '../deps.js';
import { prepareRun, type WorkflowRunContext } from './prepare.js';

/**
 * `workflow_run.requested` / `workflow_run.in_progress`: an in_progress check run on the head
 * commit. An invalid .github/receipts.yml fails the check run straight away.
 */
export function onWorkflowRunStarted(deps: ReceiptsAppDeps) {
  return async (context: WorkflowRunContext): Promise<void> => {
    const prepared = await prepareRun(context, deps);
    if (!prepared) return;
    const { client, target, config } = prepared;
    if (config.ok) {
      await startCheckRun(client, target);
    } else {
      const reason = new SafeCheckError(config.message);
      await completeCheckRun(client, target, () => Promise.reject(reason));
    }
  };
}

import type { ApplicationFunction } from 'probot';
import type { ReceiptsAppDeps } from './deps.js';
import { onCheckRunRerequested } from './handlers/check-run-rerequested.js';
import { onWorkflowRunCompleted } from './handlers/workflow-run-completed.js';
import { onWorkflowRunStarted } from './handlers/workflow-run-started.js';

/** The Probot app: workflow runs become receipts, reported as check runs. */
export function receiptsApp(deps: ReceiptsAppDeps): ApplicationFunction {
  return (probot) => {
    probot.on(['workflow_run.requested', 'workflow_run.in_progress'], onWorkflowRunStarted(deps));
    probot.on('workflow_run.completed', onWorkflowRunCompleted(deps));
    probot.on('check_run.rerequested', onCheckRunRerequested(deps));
  };
}

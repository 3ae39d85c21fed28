import type { ApplicationFunction } from 'probot';
import type { ReceiptsAppDeps } from './deps.js';
import { onCheckRunRerequested } from './handlers/check-run-rerequested.js';
import { onDeploymentProtectionRule } from './handlers/deployment-protection-rule.js';
import { onWorkflowRunCompleted } from './handlers/workflow-run-completed.js';
import { onWorkflowRunStarted } from './handlers/workflow-run-started.js';

/** The Probot app: workflow runs become receipts, reported as check runs; deployments are gated. */
export function receiptsApp(deps: ReceiptsAppDeps): ApplicationFunction {
  return (probot) => {
    probot.on(['workflow_run.requested', 'workflow_run.in_progress'], onWorkflowRunStarted(deps));
    probot.on('workflow_run.completed', onWorkflowRunCompleted(deps));
    probot.on('check_run.rerequested', onCheckRunRerequested(deps));
    probot.on('deployment_protection_rule.requested', onDeploymentProtectionRule(deps));
  };
}

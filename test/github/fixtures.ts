import { createRequire } from 'node:module';
import type { EmitterWebhookEvent } from '@octokit/webhooks';

/** Real example payloads from @octokit/webhooks-examples, adapted per test. */

export type WorkflowRunPayload = EmitterWebhookEvent<'workflow_run'>['payload'];
export type WorkflowRun = WorkflowRunPayload['workflow_run'];
export type CheckRunRerequestedPayload = EmitterWebhookEvent<'check_run.rerequested'>['payload'];

interface Definition {
  name: string;
  examples: Record<string, unknown>[];
}

const require = createRequire(import.meta.url);
const definitions = require('@octokit/webhooks-examples') as Definition[];

function example(event: string, action: string): Record<string, unknown> {
  const found = definitions
    .find((d) => d.name === event)
    ?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no ${event}.${action} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}

export const APP_ID = 4242;

let lastInstallationId = 1000;
/**
 * A new installation per test: its own tenant, and its own installation token (Probot caches
 * tokens per installation, so a reused id would skip the token exchange a test expects).
 */
export function freshInstallationId(): number {
  return ++lastInstallationId;
}

const installationOf = (id: number) => ({ id, node_id: `MDIzOkludGVncmF0aW9u${id}` });

/**
 * A workflow_run payload. The package has no in_progress example, so that one is the
 * `requested` example with its action and status changed; the `completed` example is a queued
 * run with no conclusion and no `path`, so it gets status completed, conclusion success and
 * the path of its `workflow`.
 */
export function workflowRunPayload(
  installationId: number,
  action: 'requested' | 'in_progress' | 'completed',
  run: Partial<WorkflowRun> = {},
): WorkflowRunPayload {
  const base = example('workflow_run', action === 'in_progress' ? 'requested' : action);
  const installation = installationOf(installationId);
  const payload = { ...base, action, installation } as unknown as WorkflowRunPayload;
  const status = { requested: 'queued', in_progress: 'in_progress', completed: 'completed' }[
    action
  ];
  // The completed example predates `workflow_run.path`; GitHub sends it today.
  const workflowPath = (base.workflow as { path?: string } | undefined)?.path;
  Object.assign(payload.workflow_run, {
    path: payload.workflow_run.path ?? workflowPath,
    status,
    conclusion: action === 'completed' ? 'success' : null,
    ...run,
  });
  return payload;
}

/** The check_run.rerequested example, re-pointed at one of this app's check runs. */
export function checkRunRerequestedPayload(input: {
  installationId: number;
  repository: WorkflowRunPayload['repository'];
  checkRunId: number;
  externalId: string;
  headSha: string;
  name: string;
  appId?: number;
}): CheckRunRerequestedPayload {
  const payload = {
    ...example('check_run', 'rerequested'),
    installation: installationOf(input.installationId),
  } as unknown as CheckRunRerequestedPayload;
  payload.repository = input.repository as CheckRunRerequestedPayload['repository'];
  Object.assign(payload.check_run, {
    id: input.checkRunId,
    external_id: input.externalId,
    head_sha: input.headSha,
    name: input.name,
  });
  Object.assign(payload.check_run.app ?? {}, { id: input.appId ?? APP_ID });
  return payload;
}

import type { Context } from 'probot';
import {
  CHECK_NAME_PREFIX,
  completeCheckRun,
  SafeCheckError,
  type CheckTarget,
} from '../check-run.js';
import { isRevoked } from '../../receipts/record-state.js';
import type { ReceiptsAppDeps } from '../deps.js';
import { issueForRun, outputOfRecord } from '../receipt-for-run.js';
import { appRunFacts } from '../run-facts.js';
import type { CheckOutput } from '../output.js';
import { readRepoConfig } from '../repo-config.js';
import {
  adapterRequestOf,
  parseRunExternalId,
  rerunExternalId,
  tenantOf,
  type RunLink,
} from '../workflow-run.js';
import { requireConfig } from './prepare.js';

type RerequestContext = Context<'check_run.rerequested'>;

/**
 * `check_run.rerequested` on one of this app's check runs: re-verify the workflow run attempt
 * the check run is linked to (its `external_id`) under the repository's current configuration,
 * as a new receipt with externalId `<original>/rerun/<check run id>`, on a new check run. A
 * revoked receipt is not re-issued: if the receipt being re-run (or the attempt's original
 * receipt) is revoked, the new check run reports that revoked receipt, which fails.
 */
export function onCheckRunRerequested(deps: ReceiptsAppDeps) {
  return async (context: RerequestContext): Promise<void> => {
    const { check_run: checkRun, repository, installation } = context.payload;
    if (checkRun.app?.id !== deps.appId || !checkRun.name.startsWith(CHECK_NAME_PREFIX)) return;
    if (!installation) return;
    const link = parseRunExternalId(checkRun.external_id);
    const target: CheckTarget = {
      owner: repository.owner.login,
      repo: repository.name,
      headSha: checkRun.head_sha,
      name: checkRun.name,
      externalId: link
        ? rerunExternalId(link, checkRun.id)
        : `${repository.full_name}/check-runs/${checkRun.id}/rerun`,
    };
    const client = { octokit: context.octokit, appId: deps.appId, log: context.log };
    await completeCheckRun(client, target, () =>
      reverify(context, deps, {
        tenant: tenantOf(installation.id),
        installationId: installation.id,
        link,
        target,
      }),
    );
  };
}

async function reverify(
  context: RerequestContext,
  deps: ReceiptsAppDeps,
  input: {
    tenant: string;
    installationId: number;
    link: RunLink | undefined;
    target: CheckTarget;
  },
): Promise<CheckOutput> {
  const { tenant, link, target } = input;
  if (!link) {
    throw new SafeCheckError(
      'this check run is not linked to a workflow run, so it cannot be re-verified; re-run the workflow instead.',
    );
  }
  const config = requireConfig(await readRepoConfig(context, deps.defaultTrustedEvents));
  for (const externalId of new Set([context.payload.check_run.external_id ?? '', link.base])) {
    const previous = await deps.receipts.findByExternalId(tenant, externalId);
    if (previous && isRevoked(previous)) {
      return outputOfRecord(deps, await deps.receipts.assertIntact(previous, 'check-run'), {});
    }
  }
  const run = await fetchRunAttempt(context, link);
  const { repository } = context.payload;
  const request = adapterRequestOf(repository, run, target.externalId);
  return issueForRun(deps, tenant, request, config, {
    installationId: input.installationId,
    runFacts: appRunFacts(context.octokit, repository, run),
  });
}

async function fetchRunAttempt(context: RerequestContext, link: RunLink) {
  try {
    const { data } = await context.octokit.rest.actions.getWorkflowRunAttempt(
      context.repo({ run_id: link.runId, attempt_number: link.attempt }),
    );
    return data;
  } catch (err) {
    if ((err as { status?: unknown }).status === 404) {
      throw new SafeCheckError(
        `workflow run ${link.runId} attempt ${link.attempt} is no longer available on GitHub.`,
      );
    }
    throw err;
  }
}

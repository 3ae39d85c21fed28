import type { Context } from 'probot';
import { requireCallbackRun } from '../deployment-callback.js';
import { gatePolicyOf } from '../../receipts/deployment-gates/judgement.js';
import type { ReceiptsAppDeps } from '../deps.js';
import { requestGate } from '../gate-runner.js';
import { readRepoConfig } from '../repo-config.js';
import { tenantOf } from '../workflow-run.js';

type RuleContext = Context<'deployment_protection_rule.requested'>;

/**
 * `deployment_protection_rule.requested`: the environment's policy from .github/receipts.yml,
 * then the gate (`src/receipts/deployment-gates/`) answers through `deployment_callback_url`, now or when its
 * receipt arrives. No policy for the environment: no answer (the App does not gate it).
 */
export function onDeploymentProtectionRule(deps: ReceiptsAppDeps) {
  return async (context: RuleContext): Promise<void> => {
    const { installation, repository, environment, deployment, deployment_callback_url } =
      context.payload;
    const sha = deployment?.sha;
    if (!installation || !environment || !sha || !deployment_callback_url) {
      context.log.warn(
        'deployment_protection_rule without installation, environment, sha or callback: ignored',
      );
      return;
    }
    // a callback that is not this repository's run is refused before anything is stored
    requireCallbackRun(context.octokit, {
      owner: repository.owner.login,
      repo: repository.name,
      callbackUrl: deployment_callback_url,
    });
    const config = await readRepoConfig(context, deps.defaultTrustedEvents);
    const policy = gatePolicyOf(config, environment);
    if (policy.kind === 'not-gated') {
      context.log.info({ environment }, 'no deployments policy for the environment: not gated');
      return;
    }
    await requestGate(
      deps,
      context.octokit,
      context.log,
      {
        repository: repository.full_name,
        environment,
        sha,
        tenant: tenantOf(installation.id),
        requestedAt: new Date(),
        installationId: installation.id,
        callbackUrl: deployment_callback_url,
        deploymentId: deployment.id,
      },
      policy,
    );
  };
}

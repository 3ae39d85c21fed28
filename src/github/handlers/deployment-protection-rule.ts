import type { Context } from 'probot';
import { answerDeployment } from '../deployment-callback.js';
import { decideDeployment } from '../deployment-gate.js';
import type { ReceiptsAppDeps } from '../deps.js';
import { readRepoConfig } from '../repo-config.js';
import { tenantOf } from '../workflow-run.js';

type RuleContext = Context<'deployment_protection_rule.requested'>;

/**
 * `deployment_protection_rule.requested`: decide the deployment under the environment's policy
 * and answer through its `deployment_callback_url`. No policy for the environment: no answer
 * (the App does not gate it). A decision still waiting for its receipt is rejected for now.
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
    const config = await readRepoConfig(context, deps.defaultTrustedEvents);
    const outcome = await decideDeployment(deps, config, {
      repository: repository.full_name,
      environment,
      sha,
      tenant: tenantOf(installation.id),
      requestedAt: new Date(),
      canWait: false,
    });
    if (outcome.state === 'not-gated') {
      context.log.info({ environment }, `no deployments policy for environment: not gated`);
      return;
    }
    const state = outcome.state === 'approved' ? 'approved' : 'rejected';
    context.log.info({ environment, sha, state, reason: outcome.reason }, 'deployment decided');
    await answerDeployment(
      context.octokit,
      {
        owner: repository.owner.login,
        repo: repository.name,
        callbackUrl: deployment_callback_url,
      },
      { environment, state, comment: outcome.comment },
    );
  };
}

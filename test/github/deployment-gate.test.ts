import { randomBytes, randomUUID } from 'node:crypto';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ed25519Pem } from '../helpers/context.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { workflowRunPayload } from './fixtures.js';
import { deliver, GITHUB_API, nockRepoConfig, nockToken, PUBLIC_URL, TOKEN } from './helpers.js';
import { githubSuite } from './suite.js';

/**
 * The deployment gate end to end: a really signed `deployment_protection_rule` webhook, the
 * repository's policy read from GitHub, the receipts in the store, and the answer POSTed to the
 * run's deployment_callback_url (every GitHub call nocked and required).
 */
const suite = githubSuite();

const sha = () => randomBytes(20).toString('hex');

function repository() {
  const { repository } = workflowRunPayload(suite.installationId, 'completed');
  return repository;
}

function rulePayload(
  repo: ReturnType<typeof repository>,
  commit: string,
  options: { environment?: string; callbackUrl?: string } = {},
) {
  const callback = `${GITHUB_API}/repos/${repo.full_name}/actions/runs/777/deployment_protection_rule`;
  return {
    action: 'requested',
    environment: options.environment ?? 'production',
    event: 'push',
    deployment_callback_url: options.callbackUrl ?? callback,
    deployment: {
      id: 1,
      sha: commit,
      ref: 'main',
      environment: options.environment ?? 'production',
    },
    repository: repo,
    installation: { id: suite.installationId, node_id: 'MDIzOkludGVncmF0aW9u' },
    sender: repo.owner,
  };
}

interface Answer {
  environment_name: string;
  state: string;
  comment: string;
}

/** The token, the policy file and the callback; the callback's body lands in the array. */
function nockGate(repo: ReturnType<typeof repository>, yaml: string | null, callback = true) {
  nockToken(suite.installationId);
  nockRepoConfig(repo.owner.login, repo.name, yaml);
  const answers: Answer[] = [];
  if (callback) {
    nock(GITHUB_API, { reqheaders: { authorization: `token ${TOKEN}` } })
      .post(
        `/repos/${repo.owner.login}/${repo.name}/actions/runs/777/deployment_protection_rule`,
        (body: Answer) => {
          answers.push(body);
          return true;
        },
      )
      .reply(204);
  }
  return answers;
}

async function issue(
  repo: ReturnType<typeof repository>,
  commit: string,
  options: { event?: string; tenant?: string; oidc?: Record<string, string> } = {},
) {
  const runId = String(Math.floor(Math.random() * 1e9));
  const identity = options.oidc
    ? {
        kind: 'oidc-valid' as const,
        claims: {
          issuer: 'https://token.actions.githubusercontent.com',
          repository: repo.full_name,
          sha: commit,
          event_name: options.event ?? 'push',
          run_id: runId,
          run_attempt: '1',
          jti: randomUUID(),
          exp: Math.floor(Date.now() / 1000) + 600,
          ...options.oidc,
        },
      }
    : { kind: 'github-app' as const, installationId: suite.installationId };
  const { record } = await suite.ctx.app.services.receipts.issueCi(
    options.tenant ?? suite.tenant,
    {
      externalId: `${repo.full_name}/${runId}/1`,
      headSha: commit,
      subject: { kind: 'workflow_run', summary: 'release' },
      repository: { fullName: repo.full_name, htmlUrl: repo.html_url },
      provenance: { eventName: options.event ?? 'push' },
    },
    { identity },
  );
  return record;
}

const POLICY = 'deployments:\n  production:\n    identity: proven\n';

describe('deployment gate', () => {
  it('a clean receipt of the commit: approved, with a link to its verify page', async () => {
    const repo = repository();
    const commit = sha();
    const record = await issue(repo, commit);
    const answers = nockGate(repo, POLICY);
    const res = await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit),
    );
    expect(res.statusCode).toBe(200);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ environment_name: 'production', state: 'approved' });
    expect(answers[0]?.comment).toContain(`receipt ${record.id} meets the policy`);
    expect(answers[0]?.comment).toContain(
      `${PUBLIC_URL}/verify?hash=${encodeURIComponent(record.receipt.receiptHash)}`,
    );
  });

  it('a BLOCK receipt: rejected, naming the decision', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit, { event: 'pull_request_target' });
    const answers = nockGate(repo, POLICY);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(answers[0]).toMatchObject({ state: 'rejected' });
    expect(answers[0]?.comment).toContain('decision BLOCK (required: clean)');
  });

  it('a revoked receipt: rejected', async () => {
    const repo = repository();
    const commit = sha();
    const record = await issue(repo, commit);
    const pem = ed25519Pem();
    await registerIssuer(suite.ctx.repos, pem, suite.tenant);
    const key = await suite.ctx.apiKey(['revoke'], suite.tenant);
    expect((await revokeVia(suite.ctx.app, key, record.id, pem)).statusCode).toBe(200);
    const answers = nockGate(repo, POLICY);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(answers[0]).toMatchObject({ state: 'rejected' });
    expect(answers[0]?.comment).toContain(`receipt ${record.id} is revoked`);
  });

  it('an OIDC-proven receipt of a self-hosted run under denySelfHostedRunners: rejected', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit, {
      tenant: 'tenant-oidc',
      oidc: {
        runner_environment: 'self-hosted',
        workflow_ref: `${repo.full_name}/.github/workflows/release.yml@refs/heads/main`,
      },
    });
    const yaml =
      'deployments:\n  "*":\n    identity: oidc\n    workflow: .github/workflows/release.yml\n' +
      '    denySelfHostedRunners: true\n    allowComplianceGap: true\n';
    const answers = nockGate(repo, yaml);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(answers[0]).toMatchObject({ state: 'rejected', environment_name: 'production' });
    expect(answers[0]?.comment).toContain('the run used a self-hosted runner');
  });

  it("another tenant's receipt without an OIDC-proven identity does not count", async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit, { tenant: 'tenant-other' });
    const answers = nockGate(repo, 'deployments:\n  production:\n    wait: 1m\n');
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(answers[0]?.state).toBe('rejected');
    expect(answers[0]?.comment).toContain('no matching CI receipt');
  });

  it('a malformed policy: rejected with the parse error', async () => {
    const repo = repository();
    const answers = nockGate(repo, 'deployments:\n  production:\n    maxAge: soon\n');
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, sha()));
    expect(answers[0]).toMatchObject({ state: 'rejected' });
    expect(answers[0]?.comment).toContain('`deployments.production.maxAge`');
  });

  it('no policy for the environment: no answer at all', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
    nockGate(repo, 'deployments:\n  production:\n    identity: proven\n', false);
    const res = await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit, { environment: 'staging' }),
    );
    expect(res.statusCode).toBe(200);
  });

  it('a callback URL that is not this repository’s run is never called', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
    nockGate(repo, POLICY, false);
    const res = await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit, {
        callbackUrl: 'https://attacker.example/repos/x/y/actions/runs/1/deployment_protection_rule',
      }),
    );
    expect(res.statusCode).toBe(500);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import nock from 'nock';
import type { ReceiptsAppDeps } from '../../src/github/deps.js';
import type { CiIdentityEvidence } from '../../src/receipts/ci-identity/identity.js';
import { ed25519Pem } from '../helpers/context.js';
import { issuerHeaders, registerIssuer } from '../helpers/revocation.js';
import { APP_ID, workflowRunPayload } from './fixtures.js';
import { GITHUB_API, nockRepoConfig, nockToken, PUBLIC_URL, TOKEN } from './helpers.js';
import type { GitHubSuite } from './suite.js';

/**
 * The deployment gate's test kit: a repository and its waiting workflow run, the signed
 * `deployment_protection_rule` payload, the nocked GitHub calls of a decision (policy file,
 * callback, check run), the gate's row, and receipts issued through the service.
 */

export const sha = () => randomBytes(20).toString('hex');

export type Repository = ReturnType<typeof workflowRunPayload>['repository'];

export interface CheckRun {
  name: string;
  head_sha: string;
  external_id: string;
  status: string;
  conclusion: string;
  details_url?: string;
  output: { title: string; summary: string };
}

export interface Answer {
  environment_name: string;
  state: string;
  comment: string;
}

export interface IssueOptions {
  event?: string;
  tenant?: string;
  /** Claims of a verified OIDC token (over the run's own); absent: the App's webhook proves it. */
  oidc?: Record<string, string>;
  /** The repository the request names (default: the gate's). */
  repository?: string;
}

export function gateKit(suite: GitHubSuite) {
  /** The workflow run waiting on the environment: a new one per repository. */
  let runId = 0;

  function repository(): Repository {
    runId = Math.floor(Math.random() * 1e9);
    return workflowRunPayload(suite.installationId, 'completed').repository;
  }

  const callbackOf = (repo: Repository) =>
    `${GITHUB_API}/repos/${repo.full_name}/actions/runs/${runId}/deployment_protection_rule`;

  function rulePayload(
    repo: Repository,
    commit: string,
    options: { environment?: string; callbackUrl?: string; deploymentId?: number } = {},
  ) {
    return {
      action: 'requested',
      environment: options.environment ?? 'production',
      event: 'push',
      deployment_callback_url: options.callbackUrl ?? callbackOf(repo),
      deployment: {
        id: options.deploymentId ?? 1,
        sha: commit,
        ref: 'main',
        environment: options.environment ?? 'production',
      },
      repository: repo,
      installation: { id: suite.installationId, node_id: 'MDIzOkludGVncmF0aW9u' },
      sender: repo.owner,
    };
  }

  async function gateRow(repo: Repository) {
    return (await suite.ctx.db
      .knex('deployment_gates')
      .where({ repository: repo.full_name, tenant: suite.tenant })
      .orderBy('requested_at', 'desc')
      .first()) as { id: string; state: string; attempts: number; reason: string } | undefined;
  }

  function gateDeps(): ReceiptsAppDeps {
    const { services } = suite.ctx.app;
    return {
      appId: APP_ID,
      publicUrl: PUBLIC_URL,
      defaultTrustedEvents: [],
      receipts: services.receipts,
      gates: services.deploymentGates,
    };
  }

  /** The decision's check run: the lookup by name and its creation, whose bodies land in `into`. */
  function nockGateCheck(repo: Repository, into: CheckRun[] = [], listStatus = 200) {
    const path = `/repos/${repo.owner.login}/${repo.name}`;
    const scope = nock(GITHUB_API, { reqheaders: { authorization: `token ${TOKEN}` } })
      .get(new RegExp(`^${path}/commits/[0-9a-f]{40}/check-runs\\?`))
      .reply(
        listStatus,
        listStatus === 200 ? { total_count: 0, check_runs: [] } : { message: 'no' },
      );
    if (listStatus === 200) {
      scope
        .post(`${path}/check-runs`, (body: CheckRun) => {
          into.push(body);
          return true;
        })
        .reply(201, { id: 1 });
    }
    return into;
  }

  /**
   * The callback POST, answered with `status`; its bodies land in the array. An accepted answer
   * is followed by the decision's check run, whose bodies land in `checks` (false: not nocked).
   */
  function nockCallback(repo: Repository, status = 204, checks: CheckRun[] | false = []) {
    if (status < 400 && checks) nockGateCheck(repo, checks);
    const answers: Answer[] = [];
    nock(GITHUB_API, { reqheaders: { authorization: `token ${TOKEN}` } })
      .post(
        `/repos/${repo.owner.login}/${repo.name}/actions/runs/${runId}/deployment_protection_rule`,
        (body: Answer) => {
          answers.push(body);
          return true;
        },
      )
      .reply(status, status >= 400 ? { message: 'Server Error' } : undefined);
    return answers;
  }

  /** The token, the policy file and the callback; the callback's body lands in the array. */
  function nockGate(repo: Repository, yaml: string | null, callback = true) {
    nockToken(suite.installationId);
    nockRepoConfig(repo.owner.login, repo.name, yaml);
    return callback ? nockCallback(repo) : [];
  }

  /** A CI receipt of `commit` issued through the service, proven as `options` says. */
  async function issue(repo: Repository, commit: string, options: IssueOptions = {}) {
    const run = String(Math.floor(Math.random() * 1e9));
    const named = options.repository ?? repo.full_name;
    const identity: CiIdentityEvidence = options.oidc
      ? {
          kind: 'oidc-valid',
          claims: {
            issuer: 'https://token.actions.githubusercontent.com',
            repository: named,
            sha: commit,
            event_name: options.event ?? 'push',
            run_id: run,
            run_attempt: '1',
            jti: randomUUID(),
            exp: Math.floor(Date.now() / 1000) + 600,
            ...options.oidc,
          },
        }
      : { kind: 'github-app', installationId: suite.installationId };
    const { record } = await suite.ctx.app.services.receipts.issueCi(
      options.tenant ?? suite.tenant,
      {
        externalId: `${named}/${run}/1`,
        headSha: commit,
        subject: { kind: 'workflow_run', summary: 'release' },
        repository: { fullName: named, htmlUrl: `https://github.com/${named}` },
        provenance: { eventName: options.event ?? 'push' },
      },
      { identity },
    );
    return record;
  }

  /** `tenant` revokes its receipt through the API, as its own (new) issuer. */
  async function revoke(tenant: string, receiptId: string): Promise<void> {
    const pem = ed25519Pem();
    const issuerId = `escrow-${randomUUID()}`;
    await registerIssuer(suite.ctx.repos, pem, tenant, issuerId);
    const res = await suite.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/receipt/${receiptId}/revoke`,
      headers: {
        'x-api-key': await suite.ctx.apiKey(['revoke'], tenant),
        ...issuerHeaders(pem, receiptId, issuerId),
      },
    });
    if (res.statusCode !== 200) throw new Error(`revocation refused: ${res.body}`);
  }

  return {
    revoke,
    repository,
    rulePayload,
    gateRow,
    gateDeps,
    nockGateCheck,
    nockCallback,
    nockGate,
    issue,
  };
}

import { randomInt } from 'node:crypto';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { bodyOf, runRequest, type RunRequest } from '../helpers/ci-run.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc-issuer.js';
import { GITHUB_API, githubEnv, TOKEN, unmatched } from '../github/helpers.js';
import { TestOctokit } from '../github/test-octokit.js';

/**
 * ci-provenance-v2 on the API path (the action): runner and workflow ref from the run's verified
 * OIDC token, the default branch asked from GitHub with the GitHub App's installation access.
 */

const AUDIENCE = 'https://receipts.test';
const TENANT = 'tenant-v2';
let issuer: TestIssuer;
let ctx: TestContext;
let key: string;
let installationId = 7_100;

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  issuer = await startIssuer(AUDIENCE);
  ctx = await createTestContext(
    {
      ...githubEnv(),
      CI_OIDC_ISSUERS: issuer.url,
      CI_OIDC_AUDIENCE: AUDIENCE,
      CI_OIDC_JWKS_COOLDOWN_MS: '0',
    },
    undefined,
    { octokit: TestOctokit },
  );
  key = await ctx.apiKey(['verify', 'read'], TENANT);
  await ctx.repos.tenantPolicies.setCiProfile(TENANT, 'ci-provenance-v2');
  await ctx.repos.tenantPolicies.setCiRepositories(TENANT, ['acme/*']);
});
afterAll(async () => {
  await ctx.close();
  await issuer.close();
  nock.enableNetConnect();
});
afterEach(() => {
  const pending = nock.pendingMocks();
  const strays = unmatched.splice(0).filter((call) => call.includes('api.github.com'));
  nock.cleanAll();
  expect(pending, 'GitHub calls expected but not made').toEqual([]);
  expect(strays, 'GitHub calls made but not expected').toEqual([]);
});

/** A run of a repository new to this test (the default-branch cache is per repository). */
const newRun = () => runRequest(`acme/repo-${randomInt(1e9)}`);

function token(request: RunRequest, runner = 'github-hosted', ref = 'refs/heads/main') {
  const repo = request.repository.fullName;
  return issuer.sign({
    repository: repo,
    sha: request.headSha,
    event_name: 'push',
    run_id: request.runId,
    run_attempt: '1',
    workflow_ref: `${repo}/.github/workflows/ci.yml@${ref}`,
    ref,
    runner_environment: runner,
  });
}

/** The app's JWT finds the installation, whose token reads the repository. */
function nockDefaultBranch(repo: string, answer: { branch: string } | { status: number }) {
  const lookup = nock(GITHUB_API).get(`/repos/${repo}/installation`);
  if ('status' in answer) {
    lookup.reply(answer.status, { message: 'no' });
    return;
  }
  const id = ++installationId;
  lookup.matchHeader('authorization', /^bearer ey/i).reply(200, { id });
  nock(GITHUB_API)
    .post(`/app/installations/${id}/access_tokens`)
    .reply(201, { token: TOKEN, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
  nock(GITHUB_API, { reqheaders: { authorization: `token ${TOKEN}` } })
    .get(`/repos/${repo}`)
    .reply(200, { full_name: repo, default_branch: answer.branch });
}

async function send(request: RunRequest, oidc?: string) {
  const body = bodyOf(request);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': key, ...(oidc ? { 'x-ci-oidc-token': oidc } : {}) },
    payload: body,
  });
  const stored = await ctx.repos.receipts.findByExternalId(TENANT, request.externalId);
  const checks = Object.fromEntries(
    (stored?.receipt.checks ?? []).map((c) => [c.checkId, c.status]),
  );
  return { res, receipt: stored?.receipt, checks };
}

describe('ci-provenance-v2 through the API (OIDC token)', () => {
  it('GitHub-hosted, from the default branch: clean; the default branch is asked once', async () => {
    const request = newRun();
    nockDefaultBranch(request.repository.fullName, { branch: 'main' });
    const { res, receipt, checks } = await send(request, await token(request));
    expect(res.json()).toMatchObject({ receiptStatus: 'clean', conclusion: 'success' });
    expect(receipt?.policyProfile).toBe('ci-provenance-v2');
    expect(checks).toMatchObject({
      'ci.identity': 'PASS',
      'ci.runner': 'PASS',
      'ci.branch': 'PASS',
    });

    const again = { ...newRun(), repository: request.repository };
    again.externalId = `${request.repository.fullName}/${again.runId}/1`;
    const second = await send(again, await token(again)); // cached: no GitHub call
    expect(second.res.json()).toMatchObject({ receiptStatus: 'clean' });
  });

  it('a self-hosted runner and a workflow from another branch: compliance_gap', async () => {
    const request = newRun();
    nockDefaultBranch(request.repository.fullName, { branch: 'main' });
    const { res, receipt } = await send(
      request,
      await token(request, 'self-hosted', 'refs/heads/dev'),
    );
    expect(res.json()).toMatchObject({ receiptStatus: 'compliance_gap', conclusion: 'neutral' });
    expect(receipt?.reasons).toEqual(['self_hosted_runner', 'not_default_branch']);
  });

  it('the app is not installed on the repository: default_branch_unverified', async () => {
    const request = newRun();
    nockDefaultBranch(request.repository.fullName, { status: 404 });
    const { res, receipt } = await send(request, await token(request));
    expect(res.json()).toMatchObject({ receiptStatus: 'compliance_gap' });
    expect(receipt?.reasons).toEqual(['default_branch_unverified']);
    const branch = receipt?.checks.find((c) => c.checkId === 'ci.branch');
    expect(branch?.details).toContain('not installed');
  });

  it('GitHub unreachable: 503 dependency_unavailable and no receipt stored', async () => {
    const request = newRun();
    nockDefaultBranch(request.repository.fullName, { status: 502 });
    const { res, receipt } = await send(request, await token(request));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: 'dependency_unavailable' });
    expect(JSON.stringify(res.json())).not.toContain('api.github.com');
    expect(receipt).toBeUndefined();
  });

  it('no token: identity, runner and branch all unproven, and GitHub is not asked', async () => {
    const request = newRun();
    const { res, receipt } = await send(request);
    expect(res.json()).toMatchObject({ receiptStatus: 'compliance_gap' });
    expect(receipt?.reasons).toEqual([
      'identity_unverified',
      'runner_unverified',
      'default_branch_unverified',
    ]);
  });
});

describe('ci-provenance-v2 without a GitHub App', () => {
  it('the default branch cannot be proven: default_branch_unverified, runner still judged', async () => {
    const bare = await createTestContext({
      CI_OIDC_ISSUERS: issuer.url,
      CI_OIDC_AUDIENCE: AUDIENCE,
    });
    try {
      const bareKey = await bare.apiKey(['verify'], TENANT);
      await bare.repos.tenantPolicies.setCiProfile(TENANT, 'ci-provenance-v2');
      await bare.repos.tenantPolicies.setCiRepositories(TENANT, ['acme/*']);
      const request = newRun();
      const body = bodyOf(request);
      const res = await bare.app.inject({
        method: 'POST',
        url: '/api/v1/verifications/ci',
        headers: { 'x-api-key': bareKey, 'x-ci-oidc-token': await token(request) },
        payload: body,
      });
      expect(res.json()).toMatchObject({ receiptStatus: 'compliance_gap' });
      const stored = await bare.repos.receipts.findByExternalId(TENANT, request.externalId);
      expect(stored?.receipt.reasons).toEqual(['default_branch_unverified']);
      const branch = stored?.receipt.checks.find((c) => c.checkId === 'ci.branch');
      expect(branch?.details).toContain('no GitHub App');
    } finally {
      await bare.close();
    }
  });
});

import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { workflowRunPayload } from './fixtures.js';
import { deliver, GITHUB_API, nockNewCheckRun, runCoords, TOKEN } from './helpers.js';
import { githubSuite } from './suite.js';

/**
 * ci-provenance-v2 on the GitHub App path, chosen in .github/receipts.yml: the workflow ref and
 * default branch come from the signed webhook, the runner from the attempt's jobs (one call).
 */
const suite = githubSuite();
const V2 = 'policyProfile: ci-provenance-v2\n';

type Payload = ReturnType<typeof workflowRunPayload>;

function completed(run: Record<string, unknown> = {}): Payload {
  const payload = workflowRunPayload(suite.installationId, 'completed', { event: 'push' });
  Object.assign(payload.workflow_run, {
    head_branch: payload.repository.default_branch,
    head_repository: {
      ...payload.workflow_run.head_repository,
      full_name: payload.repository.full_name,
    },
    ...run,
  });
  return payload;
}

type Job = { labels: string[]; runner_name: string | null; runner_group_name: string | null };
const hosted: Job = {
  labels: ['ubuntu-latest'],
  runner_name: 'GitHub Actions 2',
  runner_group_name: 'GitHub Actions',
};
const selfHosted: Job = {
  labels: ['self-hosted', 'linux'],
  runner_name: 'build-01',
  runner_group_name: 'Default',
};

function nockJobs(payload: Payload, jobs: Job[], total = jobs.length) {
  const { owner, repo } = runCoords(payload);
  const run = payload.workflow_run;
  nock(GITHUB_API, { reqheaders: { authorization: `token ${TOKEN}` } })
    .get(`/repos/${owner}/${repo}/actions/runs/${run.id}/attempts/${run.run_attempt}/jobs`)
    .query({ per_page: '100' })
    .reply(200, { total_count: total, jobs });
}

async function run(payload: Payload, jobs: Job[] | null, total = jobs?.length) {
  const bodies = nockNewCheckRun(suite.installationId, payload, { config: V2 });
  if (jobs) nockJobs(payload, jobs, total);
  expect((await deliver(suite.ctx.app, 'workflow_run', payload)).statusCode).toBe(200);
  const record = await suite.ctx.repos.receipts.findByExternalId(
    suite.tenant,
    runCoords(payload).externalId,
  );
  const checks = Object.fromEntries(
    (record?.receipt.checks ?? []).map((c) => [c.checkId, c.status]),
  );
  return { body: bodies[0], receipt: record?.receipt, checks };
}

describe('ci-provenance-v2 (GitHub App)', () => {
  it('a push to the default branch on GitHub-hosted runners: success under v2', async () => {
    const { body, receipt, checks } = await run(completed(), [
      hosted,
      { ...hosted, runner_name: null },
    ]);
    expect(body).toMatchObject({ conclusion: 'success' });
    expect(receipt?.policyProfile).toBe('ci-provenance-v2');
    expect(checks).toMatchObject({
      'ci.identity': 'PASS',
      'ci.runner': 'PASS',
      'ci.branch': 'PASS',
    });
    expect(body?.output.summary).toContain('policy profile `ci-provenance-v2`');
  });

  it('a self-hosted job and another branch: neutral, with both reasons', async () => {
    const { body, receipt } = await run(completed({ head_branch: 'feature/x' }), [
      hosted,
      selfHosted,
    ]);
    expect(body).toMatchObject({ conclusion: 'neutral' });
    expect(receipt?.decision).toBe('FLAG');
    expect(receipt?.reasons).toEqual(
      expect.arrayContaining(['self_hosted_runner', 'not_default_branch']),
    );
  });

  it('a run from a fork: default_branch_unverified', async () => {
    const { receipt } = await run(completed({ head_repository: { full_name: 'someone/fork' } }), [
      hosted,
    ]);
    expect(receipt?.reasons).toEqual(['default_branch_unverified']);
  });

  it('an event whose webhook names no branch (release): default_branch_unverified', async () => {
    const payload = completed({ event: 'release' });
    nockNewCheckRun(suite.installationId, payload, { config: `${V2}trustedEvents: [release]\n` });
    nockJobs(payload, [hosted]);
    await deliver(suite.ctx.app, 'workflow_run', payload);
    const record = await suite.ctx.repos.receipts.findByExternalId(
      suite.tenant,
      runCoords(payload).externalId,
    );
    expect(record?.receipt.reasons).toEqual(['default_branch_unverified']);
  });

  it('a runner group that is not GitHub-hosted nor labelled self-hosted: runner_unverified', async () => {
    const { receipt } = await run(completed(), [{ ...hosted, runner_group_name: 'Large runners' }]);
    expect(receipt?.reasons).toEqual(['runner_unverified']);
  });

  it('a run with more jobs than one page lists is not proven hosted: runner_unverified', async () => {
    const { receipt } = await run(completed(), [hosted, hosted], 150);
    expect(receipt?.reasons).toEqual(['runner_unverified']);
    const check = receipt?.checks.find((c) => c.checkId === 'ci.runner');
    expect(check?.details).toContain('150 jobs');
  });

  it('v1 (no profile in the file) asks GitHub nothing more and judges no runner or branch', async () => {
    const payload = completed({ head_branch: 'feature/x' });
    const bodies = nockNewCheckRun(suite.installationId, payload);
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({ conclusion: 'success' });
    expect(bodies[0]?.output.summary).toContain('policy profile `ci-provenance-v1`');
  });

  it('the jobs cannot be listed: the check run fails closed, no receipt', async () => {
    const payload = completed();
    const bodies = nockNewCheckRun(suite.installationId, payload, { config: V2 });
    const { owner, repo } = runCoords(payload);
    nock(GITHUB_API)
      .get(new RegExp(`^/repos/${owner}/${repo}/actions/runs/\\d+/attempts/\\d+/jobs`))
      .reply(500, { message: 'boom' });
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({ conclusion: 'failure' });
    const record = await suite.ctx.repos.receipts.findByExternalId(
      suite.tenant,
      runCoords(payload).externalId,
    );
    expect(record).toBeUndefined();
  });
});

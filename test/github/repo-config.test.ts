import { describe, expect, it } from 'vitest';
import { workflowRunPayload } from './fixtures.js';
import {
  deliver,
  nockCheckRunWrite,
  nockListCheckRuns,
  nockNewCheckRun,
  nockRepoConfig,
  nockToken,
  runCoords,
} from './helpers.js';
import { githubSuite } from './suite.js';

const suite = githubSuite();

/** The `completed` example: workflow "Manually triggered workflow", .github/workflows/syntax.yml. */
const completed = (event = 'push') =>
  workflowRunPayload(suite.installationId, 'completed', { event });

describe('.github/receipts.yml', () => {
  it('trustedEvents replaces the default list (here: trusting pull_request)', async () => {
    const payload = completed('pull_request');
    const bodies = nockNewCheckRun(suite.installationId, payload, {
      config: 'trustedEvents: [pull_request]\npolicyProfile: ci-provenance-v1\n',
    });
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({ conclusion: 'success' });
    expect(bodies[0]?.output.summary).toContain('trigger event "pull_request" is trusted');

    // ...and it replaces rather than extends: push is no longer trusted for this repository.
    const push = completed('push');
    push.workflow_run.id += 1;
    const c = runCoords(push);
    nockRepoConfig(c.owner, c.repo, 'trustedEvents: [pull_request]\n');
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name);
    const second = nockCheckRunWrite(c.owner, c.repo, { create: true });
    await deliver(suite.ctx.app, 'workflow_run', push);
    expect(second[0]).toMatchObject({ conclusion: 'failure' });
  });

  it.each([
    ['workflow name', 'workflows: [Manually triggered workflow]'],
    ['file path', 'workflows: [.github/workflows/syntax.yml]'],
    ['file name', 'workflows: [syntax.yml]'],
  ])('workflows selects a run by %s', async (_label, yaml) => {
    const payload = completed();
    const bodies = nockNewCheckRun(suite.installationId, payload, { config: yaml });
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({ conclusion: 'success' });
  });

  it('a workflow not listed in workflows gets no check run and no receipt', async () => {
    const payload = completed();
    const c = runCoords(payload);
    nockToken(suite.installationId);
    nockRepoConfig(c.owner, c.repo, 'workflows: [release.yml]\n');
    expect((await deliver(suite.ctx.app, 'workflow_run', payload)).statusCode).toBe(200);
    expect(await suite.ctx.repos.receipts.findByExternalId(suite.tenant, c.externalId)).toBe(
      undefined,
    );
  });

  it.each([
    ['an unknown key', 'trustedEvent: [push]\n', '`trustedEvent`'],
    ['a wrong type', 'trustedEvents: push\n', '`trustedEvents`'],
    ['an unknown policy profile', 'policyProfile: ron-standard-v1\n', '`policyProfile`'],
    ['invalid YAML', 'trustedEvents: [push\n', 'is not valid YAML'],
  ])('%s fails the check run closed, no receipt', async (_label, yaml, expected) => {
    const payload = completed();
    const bodies = nockNewCheckRun(suite.installationId, payload, { config: yaml });
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
      output: { title: 'Verification receipt not issued' },
    });
    expect(bodies[0]?.output.summary).toContain('.github/receipts.yml');
    expect(bodies[0]?.output.summary).toContain(expected);
    const { externalId } = runCoords(payload);
    expect(await suite.ctx.repos.receipts.findByExternalId(suite.tenant, externalId)).toBe(
      undefined,
    );
  });

  it('an invalid file fails the check run already when the run starts', async () => {
    const payload = workflowRunPayload(suite.installationId, 'requested');
    const bodies = nockNewCheckRun(suite.installationId, payload, { config: 'workflows: 7\n' });
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(bodies[0]?.output.summary).toContain('`workflows`');
  });
});

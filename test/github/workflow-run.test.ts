import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { workflowRunPayload } from './fixtures.js';
import {
  deliver,
  nockCheckRunWrite,
  nockNewCheckRun,
  runCoords,
  nockListCheckRuns,
  nockRepoConfig,
  nockToken,
  PUBLIC_URL,
} from './helpers.js';
import { githubSuite } from './suite.js';

const suite = githubSuite();

const completed = (run: Parameters<typeof workflowRunPayload>[2] = {}) =>
  workflowRunPayload(suite.installationId, 'completed', { event: 'push', ...run });

describe('workflow_run.requested / in_progress', () => {
  it.each(['requested', 'in_progress'] as const)(
    '%s creates an in_progress check run on the head commit',
    async (action) => {
      const payload = workflowRunPayload(suite.installationId, action);
      const bodies = nockNewCheckRun(suite.installationId, payload);
      const res = await deliver(suite.ctx.app, 'workflow_run', payload);
      expect(res.statusCode).toBe(200);
      const c = runCoords(payload);
      expect(bodies).toEqual([
        expect.objectContaining({
          name: c.name,
          head_sha: c.sha,
          external_id: c.externalId,
          status: 'in_progress',
          output: expect.objectContaining({ title: 'Waiting for the workflow run to finish' }),
        }),
      ]);
      expect(bodies[0]).not.toHaveProperty('conclusion');
    },
  );

  it('leaves an existing check run alone (redelivery, or events out of order)', async () => {
    const payload = workflowRunPayload(suite.installationId, 'in_progress');
    const c = runCoords(payload);
    nockToken(suite.installationId);
    nockRepoConfig(c.owner, c.repo, null);
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name, [
      { id: 55, external_id: c.externalId, status: 'completed' },
    ]);
    expect((await deliver(suite.ctx.app, 'workflow_run', payload)).statusCode).toBe(200);
  });
});

describe('workflow_run.completed', () => {
  it('a trusted run: success, with decision, reasons, receipt id and links', async () => {
    const payload = completed();
    const bodies = nockNewCheckRun(suite.installationId, payload);
    expect((await deliver(suite.ctx.app, 'workflow_run', payload)).statusCode).toBe(200);

    const c = runCoords(payload);
    const record = await suite.ctx.repos.receipts.findByExternalId(suite.tenant, c.externalId);
    const id = record?.id;
    expect(id).toBeDefined();
    expect(bodies).toHaveLength(1);
    const body = bodies[0]!;
    expect(body).toMatchObject({
      name: c.name,
      head_sha: c.sha,
      external_id: c.externalId,
      status: 'completed',
      conclusion: 'success',
      details_url: `${PUBLIC_URL}/verify?hash=${encodeURIComponent(record?.receipt.receiptHash ?? '')}`,
      output: { title: 'Provenance verified (ALLOW)' },
    });
    // docs/github-app.md says where Details leads: keep it true
    const doc = fs.readFileSync(new URL('../../docs/github-app.md', import.meta.url), 'utf8');
    expect(doc).toContain(
      '_Details_ link opens the public verify page for the receipt\n(`<PUBLIC_URL>/verify?hash=<receipt hash>`)',
    );
    const summary = body.output.summary;
    expect(summary).toContain('**Decision:** ALLOW');
    expect(summary).toContain('**Reasons:** none');
    expect(summary).toContain(`**Receipt:** \`${id}\``);
    expect(summary).toContain(`[Receipt JSON](${PUBLIC_URL}/api/v1/receipt/${id})`);
    expect(summary).toContain(`[Receipt PDF](${PUBLIC_URL}/api/v1/receipt/${id}/pdf)`);
    const hash = record?.receipt.receiptHash ?? '';
    expect(summary).toContain(
      `[in the browser](${PUBLIC_URL}/verify?hash=${encodeURIComponent(hash)})`,
    );
    expect(summary).toContain(`[public status](${PUBLIC_URL}/status/${hash})`);
    expect(summary).toContain(`[signing keys](${PUBLIC_URL}/.well-known/jwks.json)`);
    expect(summary).toContain(`\`npx @verification-receipts/verify FILE --online ${PUBLIC_URL}\``);
    expect(summary).toContain(`kid \`${record?.receipt.receiptSignature?.kid}\``);
    expect(summary).toContain('policy profile `ci-provenance-v1`');
    expect(summary).toContain(payload.workflow_run.html_url);
    expect(record?.receipt.subject).toMatchObject({
      kind: 'ci-workflow-run',
      externalId: c.externalId,
      subjectKind: 'workflow_run',
      eventName: 'push',
      repository: payload.repository.full_name,
      headSha: c.sha,
    });
  });

  it('issues into the installation tenant only, readable with that tenant key', async () => {
    const payload = completed();
    nockNewCheckRun(suite.installationId, payload);
    await deliver(suite.ctx.app, 'workflow_run', payload);
    const { externalId } = runCoords(payload);
    const record = await suite.ctx.repos.receipts.findByExternalId(suite.tenant, externalId);
    expect(await suite.ctx.repos.receipts.findByExternalId('tenant-a', externalId)).toBeUndefined();

    const url = `/api/v1/receipt/${record?.id}`;
    const ownKey = await suite.ctx.apiKey(['read'], suite.tenant);
    const own = await suite.ctx.app.inject({ url, headers: { 'x-api-key': ownKey } });
    expect(own.statusCode).toBe(200);
    const otherKey = await suite.ctx.apiKey(['read']);
    const other = await suite.ctx.app.inject({ url, headers: { 'x-api-key': otherKey } });
    expect(other.statusCode).toBe(404);
  });

  it('an untrusted trigger event: failure with its reason', async () => {
    const payload = completed({ event: 'pull_request_target' });
    const bodies = nockNewCheckRun(suite.installationId, payload);
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({
      conclusion: 'failure',
      output: { title: 'Provenance check failed (BLOCK)' },
    });
    expect(bodies[0]?.output.summary).toContain('**Reasons:** `untrusted_trigger_event`');
    expect(bodies[0]?.output.summary).toContain('| `ci.trigger` | FAIL |');
  });

  it('a malformed head sha: failure (malformed_commit_id)', async () => {
    const payload = completed({ head_sha: 'NOT-A-SHA' });
    const bodies = nockNewCheckRun(suite.installationId, payload);
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({ conclusion: 'failure' });
    expect(bodies[0]?.output.summary).toContain('`malformed_commit_id`');
  });

  it('a FLAG receipt completes as neutral (injected: no CI check warns today)', async () => {
    // The CI checks only PASS or FAIL, so compliance_gap cannot come from a real run yet; this
    // pins compliance_gap -> neutral on the webhook path for when a CI check can warn.
    const issueCi = suite.ctx.app.services.receipts.issueCi.bind(suite.ctx.app.services.receipts);
    vi.spyOn(suite.ctx.app.services.receipts, 'issueCi').mockImplementation(async (...args) => {
      const issued = await issueCi(...args);
      issued.record.receipt = { ...issued.record.receipt, decision: 'FLAG' };
      return issued;
    });
    const payload = completed();
    const bodies = nockNewCheckRun(suite.installationId, payload);
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(bodies[0]).toMatchObject({
      conclusion: 'neutral',
      output: { title: 'Provenance needs review (FLAG)' },
    });
    expect(bodies[0]?.output.summary).toContain('**Status:** `compliance_gap`');
  });

  it('redelivery: the same receipt, and the existing check run is updated', async () => {
    const payload = completed();
    nockNewCheckRun(suite.installationId, payload);
    await deliver(suite.ctx.app, 'workflow_run', payload);
    const c = runCoords(payload);
    const first = await suite.ctx.repos.receipts.findByExternalId(suite.tenant, c.externalId);

    nockRepoConfig(c.owner, c.repo, null);
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name, [
      { id: 9001, external_id: c.externalId, status: 'completed' },
    ]);
    const bodies = nockCheckRunWrite(c.owner, c.repo, { update: 9001 });
    expect((await deliver(suite.ctx.app, 'workflow_run', payload)).statusCode).toBe(200);
    expect(bodies[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(bodies[0]?.output.summary).toContain(`**Receipt:** \`${first?.id}\``);
  });

  it('completes every check run of the attempt (requested and in_progress raced)', async () => {
    const payload = completed();
    const c = runCoords(payload);
    nockToken(suite.installationId);
    nockRepoConfig(c.owner, c.repo, null);
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name, [
      { id: 11, external_id: c.externalId, status: 'in_progress' },
      { id: 12, external_id: c.externalId, status: 'in_progress' },
      { id: 13, external_id: `${c.externalId}/rerun/5`, status: 'completed' },
    ]);
    const first = nockCheckRunWrite(c.owner, c.repo, { update: 11 });
    const second = nockCheckRunWrite(c.owner, c.repo, { update: 12 });
    await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(first[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(second[0]).toEqual(first[0]);
  });

  it('fails closed: issuance throws -> failure check run, no internals', async () => {
    vi.spyOn(suite.ctx.app.services.receipts, 'issueCi').mockRejectedValue(
      new Error('relation "receipts" does not exist; password=hunter2'),
    );
    const payload = completed();
    const bodies = nockNewCheckRun(suite.installationId, payload);
    const res = await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(res.statusCode).toBe(200);
    expect(bodies[0]).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
      output: { title: 'Verification receipt not issued' },
    });
    const summary = bodies[0]?.output.summary ?? '';
    expect(summary).toContain('could not issue a receipt (internal error)');
    expect(summary).not.toMatch(/hunter2|relation|does not exist/);
    expect(bodies[0]).not.toHaveProperty('details_url');
  });
});

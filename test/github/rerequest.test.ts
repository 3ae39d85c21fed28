import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { checkRunRerequestedPayload, workflowRunPayload } from './fixtures.js';
import {
  deliver,
  github,
  nockCheckRunWrite,
  nockListCheckRuns,
  nockNewCheckRun,
  nockRepoConfig,
  nockToken,
  runCoords,
  TOKEN,
} from './helpers.js';
import { githubSuite } from './suite.js';

const suite = githubSuite();
const FIRST_CHECK_RUN = 7001;

/** A completed trusted run, verified and reported on check run FIRST_CHECK_RUN. */
async function verifiedRun() {
  const payload = workflowRunPayload(suite.installationId, 'completed', { event: 'push' });
  nockNewCheckRun(suite.installationId, payload, { checkRunId: FIRST_CHECK_RUN });
  expect((await deliver(suite.ctx.app, 'workflow_run', payload)).statusCode).toBe(200);
  const c = runCoords(payload);
  const record = await suite.ctx.repos.receipts.findByExternalId(suite.tenant, c.externalId);
  if (!record) throw new Error('no receipt issued');
  const rerequest = checkRunRerequestedPayload({
    installationId: suite.installationId,
    repository: payload.repository,
    checkRunId: FIRST_CHECK_RUN,
    externalId: c.externalId,
    headSha: c.sha,
    name: c.name,
  });
  return { payload, c, record, rerequest };
}

/** Revocation through the API, as an issuer registered for the installation's tenant. */
async function revokeThroughApi(receiptId: string) {
  const key = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' });
  const issuerId = `issuer-${suite.installationId}`;
  await suite.ctx.repos.issuers.add({
    issuerId,
    tenant: suite.tenant,
    publicKey: rawEd25519PublicKey(key.toString()),
  });
  const headers = signRevocation(key.toString(), issuerId, receiptId, new Date().toISOString());
  const res = await suite.ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${receiptId}/revoke`,
    headers: {
      'x-api-key': await suite.ctx.apiKey(['revoke'], suite.tenant),
      'x-issuer-id': headers.issuerId,
      'x-signature-timestamp': headers.timestamp,
      'x-issuer-signature': headers.signature,
    },
  });
  expect(res.json()).toMatchObject({ result: 'REVOKED' });
}

describe('check_run.rerequested', () => {
  it('re-verifies the run attempt as a new receipt on a new check run', async () => {
    const { payload, c, record, rerequest } = await verifiedRun();
    const rerunId = `${c.externalId}/rerun/${FIRST_CHECK_RUN}`;
    nockRepoConfig(c.owner, c.repo, null);
    github()
      .get(`/repos/${c.owner}/${c.repo}/actions/runs/${payload.workflow_run.id}/attempts/1`)
      .matchHeader('authorization', `token ${TOKEN}`)
      .reply(200, payload.workflow_run);
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name);
    const bodies = nockCheckRunWrite(c.owner, c.repo, { create: true, id: 7002 });

    expect((await deliver(suite.ctx.app, 'check_run', rerequest)).statusCode).toBe(200);
    const again = await suite.ctx.repos.receipts.findByExternalId(suite.tenant, rerunId);
    expect(again?.id).toBeDefined();
    expect(again?.id).not.toBe(record.id);
    expect(bodies[0]).toMatchObject({
      name: c.name,
      head_sha: c.sha,
      external_id: rerunId,
      status: 'completed',
      conclusion: 'success',
    });
    expect(bodies[0]?.output.summary).toContain(`**Receipt:** \`${again?.id}\``);
  });

  it('a revoked receipt is not re-issued: the new check run reports it revoked (failure)', async () => {
    const { c, record, rerequest } = await verifiedRun();
    await revokeThroughApi(record.id);
    nockRepoConfig(c.owner, c.repo, null);
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name);
    const bodies = nockCheckRunWrite(c.owner, c.repo, { create: true, id: 7003 });

    expect((await deliver(suite.ctx.app, 'check_run', rerequest)).statusCode).toBe(200);
    expect(bodies[0]).toMatchObject({
      external_id: `${c.externalId}/rerun/${FIRST_CHECK_RUN}`,
      conclusion: 'failure',
      output: { title: 'Receipt revoked (ALLOW)' },
    });
    expect(bodies[0]?.output.summary).toContain('**Status:** `revoked`');
    expect(bodies[0]?.output.summary).toContain(`**Receipt:** \`${record.id}\``);
    const rerun = `${c.externalId}/rerun/${FIRST_CHECK_RUN}`;
    expect(await suite.ctx.repos.receipts.findByExternalId(suite.tenant, rerun)).toBe(undefined);
  });

  it('a revoked receipt whose row was edited is not reported: the check run fails closed', async () => {
    const { c, record, rerequest } = await verifiedRun();
    await revokeThroughApi(record.id);
    await suite.ctx.db.knex.raw(
      `update receipts set body = jsonb_set(body, '{reasons}', '["edited"]') where id = ?`,
      [record.id],
    );
    nockRepoConfig(c.owner, c.repo, null);
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name);
    const bodies = nockCheckRunWrite(c.owner, c.repo, { create: true, id: 7004 });

    expect((await deliver(suite.ctx.app, 'check_run', rerequest)).statusCode).toBe(200);
    expect(bodies[0]).toMatchObject({ conclusion: 'failure' });
    expect(bodies[0]?.output.summary).toContain('no longer verifies');
    expect(bodies[0]?.output.summary).not.toContain(`**Receipt:** \`${record.id}\``);
  });

  it('a check run not linked to a workflow run fails closed', async () => {
    const payload = workflowRunPayload(suite.installationId, 'completed');
    const c = runCoords(payload);
    const rerequest = checkRunRerequestedPayload({
      installationId: suite.installationId,
      repository: payload.repository,
      checkRunId: 31,
      externalId: '',
      headSha: c.sha,
      name: c.name,
    });
    nockToken(suite.installationId);
    nockListCheckRuns(c.owner, c.repo, c.sha, c.name);
    const bodies = nockCheckRunWrite(c.owner, c.repo, { create: true });
    await deliver(suite.ctx.app, 'check_run', rerequest);
    expect(bodies[0]).toMatchObject({ conclusion: 'failure' });
    expect(bodies[0]?.output.summary).toContain('not linked to a workflow run');
  });

  it("ignores other apps' check runs", async () => {
    const payload = workflowRunPayload(suite.installationId, 'completed');
    const c = runCoords(payload);
    const rerequest = checkRunRerequestedPayload({
      installationId: suite.installationId,
      repository: payload.repository,
      checkRunId: 32,
      externalId: c.externalId,
      headSha: c.sha,
      name: c.name,
      appId: 1,
    });
    expect((await deliver(suite.ctx.app, 'check_run', rerequest)).statusCode).toBe(200);
  });
});

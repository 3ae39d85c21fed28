import { sleep, until } from '../helpers/until.js';
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ed25519Pem } from '../helpers/context.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import pino from 'pino';
import type { DeploymentDecision } from '../../src/contract/deployments.js';
import { canonicalJson } from '../../src/receipts/canonical.js';
import { sweepGates, type GateSweeperDeps } from '../../src/github/gate-runner.js';
import { TestOctokit } from './test-octokit.js';
import { deliver, nockRepoConfig, nockToken, PUBLIC_URL, TOKEN } from './helpers.js';
import { gateKit, sha, type CheckRun } from './gate-helpers.js';
import { githubSuite } from './suite.js';

/**
 * The deployment gate end to end: a really signed `deployment_protection_rule` webhook, the
 * repository's policy read from GitHub, the receipts in the store, and the answer POSTed to the
 * run's deployment_callback_url (every GitHub call nocked and required).
 */
const suite = githubSuite({ DEPLOYMENT_GATE_POLL_MS: '100' });

const {
  revoke,
  repository,
  rulePayload,
  gateRow,
  gateDeps,
  nockGateCheck,
  nockCallback,
  nockGate,
  issue,
} = gateKit(suite);

const silentLog = pino({ level: 'silent' }) as unknown as GateSweeperDeps['log'];

const POLICY = 'deployments:\n  production:\n    identity: proven\n';

describe('deployment gate', () => {
  it('a receipt whose row was edited behind the service: rejected, never relied on', async () => {
    const repo = repository();
    const commit = sha();
    const record = await issue(repo, commit);
    await suite.ctx.db.knex.raw(
      `update receipts set body = jsonb_set(body, '{reasons}', '["edited"]') where id = ?`,
      [record.id],
    );
    nockToken(suite.installationId);
    nockRepoConfig(repo.owner.login, repo.name, POLICY);
    const checks: CheckRun[] = [];
    const answers = nockCallback(repo, 204, checks);
    const res = await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit),
    );
    expect(res.statusCode).toBe(200);
    expect(answers).toEqual([expect.objectContaining({ state: 'rejected' })]);
    expect(answers[0]?.comment).toContain('the stored receipt no longer verifies');
    expect(checks[0]).toMatchObject({ conclusion: 'failure' });
  });

  it('a clean receipt of the commit: approved, with a link to its verify page', async () => {
    const repo = repository();
    const commit = sha();
    const record = await issue(repo, commit);
    nockToken(suite.installationId);
    nockRepoConfig(repo.owner.login, repo.name, POLICY);
    const checks: CheckRun[] = [];
    const answers = nockCallback(repo, 204, checks);
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
    // the decision on the commit: a check run saying what, why, on which receipt, under which policy
    expect(checks).toHaveLength(1);
    const check = checks[0]!;
    expect(check).toMatchObject({
      name: 'Deployment gate: production',
      head_sha: commit,
      status: 'completed',
      conclusion: 'success',
      output: { title: 'Deployment to production approved' },
    });
    const row = await gateRow(repo);
    const { summary } = check.output;
    expect(summary).toContain('**Decision:** approved');
    expect(summary).toContain(`receipt ${record.id} meets the policy`);
    expect(summary).toContain(`receipt \`${record.id}\``);
    expect(summary).toContain(
      `(${PUBLIC_URL}/verify?hash=${encodeURIComponent(record.receipt.receiptHash)})`,
    );
    expect(summary).toMatch(/\*\*Policy hash:\*\* `sha256:[0-9a-f]{64}`/);
    expect(summary).toContain(
      `(${PUBLIC_URL}/api/v1/deployments?repository=${encodeURIComponent(repo.full_name)})`,
    );
    expect(summary).toContain(`decision \`${String(row?.id)}\``);
  });

  it('a check run GitHub refuses: logged, the deployment is still answered and decided', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
    nockToken(suite.installationId);
    nockRepoConfig(repo.owner.login, repo.name, POLICY);
    nockGateCheck(repo, [], 500);
    const answers = nockCallback(repo, 204, false);
    const res = await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit),
    );
    expect(res.statusCode).toBe(200);
    expect(answers).toEqual([expect.objectContaining({ state: 'approved' })]);
    expect(await gateRow(repo)).toMatchObject({ state: 'approved' });
  });

  it('each decision is listed with its signed record (read key of the installation tenant)', async () => {
    const repo = repository();
    const commit = sha();
    const record = await issue(repo, commit);
    nockGate(repo, POLICY);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    const url = `/api/v1/deployments?repository=${repo.full_name}`;
    const key = await suite.ctx.apiKey(['read'], suite.tenant);
    const res = await suite.ctx.app.inject({ url, headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(200);
    const [decision] = res.json<DeploymentDecision[]>();
    expect(decision).toMatchObject({
      repository: repo.full_name,
      environment: 'production',
      sha: commit,
      state: 'approved',
    });
    const { statement, canonicalStatement, signature } = decision!.record;
    expect(statement.receipts).toEqual([
      { receiptId: record.id, receiptHash: record.receipt.receiptHash },
    ]);
    expect(statement.policyHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(canonicalStatement).toBe(canonicalJson(statement));
    const jwks = (await suite.ctx.app.inject({ url: '/.well-known/jwks.json' })).json<{
      keys: { kid: string; kty: string; crv: string; x: string }[];
    }>();
    const jwk = jwks.keys.find((k) => k.kid === signature?.kid);
    expect(jwk).toBeDefined();
    const publicKey = createPublicKey({ key: jwk!, format: 'jwk' });
    const sig = Buffer.from(signature!.signature, 'base64url');
    expect(verify(null, Buffer.from(canonicalStatement), publicKey, sig)).toBe(true);
    expect(verify(null, Buffer.from(canonicalStatement + ' '), publicKey, sig)).toBe(false);

    const other = await suite.ctx.apiKey(['read'], 'tenant-other');
    const foreign = await suite.ctx.app.inject({ url, headers: { 'x-api-key': other } });
    expect(foreign.json()).toEqual([]);
    const bad = await suite.ctx.app.inject({
      url: '/api/v1/deployments?repository=not a repo',
      headers: { 'x-api-key': key },
    });
    expect(bad.statusCode).toBe(400);
    expect((await suite.ctx.app.inject({ url })).statusCode).toBe(401);
  });

  it('a redelivered request is not answered twice; a re-run of the job (a new deployment) is', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
    const answers = nockGate(repo, POLICY);
    const payload = rulePayload(repo, commit);
    await deliver(suite.ctx.app, 'deployment_protection_rule', payload);
    nockRepoConfig(repo.owner.login, repo.name, POLICY);
    expect((await deliver(suite.ctx.app, 'deployment_protection_rule', payload)).statusCode).toBe(
      200,
    );
    expect(answers).toHaveLength(1);
    nockRepoConfig(repo.owner.login, repo.name, POLICY);
    const again = nockCallback(repo);
    await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit, { deploymentId: 2 }),
    );
    expect(again[0]).toMatchObject({ state: 'approved' });

    // two decisions, a page each: the cursor and the Link to the next page keep the repository
    const headers = { 'x-api-key': await suite.ctx.apiKey(['read'], suite.tenant) };
    const name = encodeURIComponent(repo.full_name);
    const first = await suite.ctx.app.inject({
      url: `/api/v1/deployments?repository=${name}&limit=1`,
      headers,
    });
    const cursor = String(first.headers['x-next-cursor']);
    expect(first.json()).toHaveLength(1);
    expect(first.headers.link).toBe(
      `</api/v1/deployments?repository=${name}&limit=1&cursor=${cursor}>; rel="next"`,
    );
    const url = /^<([^>]+)>/.exec(String(first.headers.link))![1]!;
    const second = await suite.ctx.app.inject({ url, headers });
    expect(second.json<DeploymentDecision[]>().map((d) => d.id)).not.toContain(
      first.json<DeploymentDecision[]>()[0]!.id,
    );
    expect(second.json()).toHaveLength(1);
    expect(second.headers['x-next-cursor']).toBeUndefined();
  });

  it('a BLOCK receipt: rejected, naming the decision', async () => {
    const repo = repository();
    const commit = sha();
    const record = await issue(repo, commit, { event: 'pull_request_target' });
    nockToken(suite.installationId);
    nockRepoConfig(repo.owner.login, repo.name, POLICY);
    const checks: CheckRun[] = [];
    const answers = nockCallback(repo, 204, checks);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(answers[0]).toMatchObject({ state: 'rejected' });
    expect(answers[0]?.comment).toContain('decision BLOCK (required: clean)');
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({
      name: 'Deployment gate: production',
      head_sha: commit,
      conclusion: 'failure',
      output: { title: 'Deployment to production rejected' },
    });
    expect(checks[0]?.output.summary).toContain('**Decision:** rejected');
    expect(checks[0]?.output.summary).toContain('decision BLOCK (required: clean)');
    expect(checks[0]?.output.summary).toContain(`receipt \`${record.id}\``);
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

  it("no receipt yet (another tenant's without OIDC proof does not count): pending, then approved when the receipt is issued", async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit, { tenant: 'tenant-other' });
    nockGate(repo, POLICY, false);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    await sleep(400);
    expect(await gateRow(repo)).toMatchObject({ state: 'pending' });
    const checks: CheckRun[] = [];
    const answers = nockCallback(repo, 204, checks);
    const record = await issue(repo, commit);
    await until(() => answers.length > 0);
    expect(answers[0]).toMatchObject({ state: 'approved' });
    expect(answers[0]?.comment).toContain(`receipt ${record.id} meets the policy`);
    await until(async () => (await gateRow(repo))?.state === 'approved');
    await until(() => checks.length > 0);
    expect(checks[0]).toMatchObject({ head_sha: commit, conclusion: 'success' });
  });

  it('GitHub answering 5xx to the callback: retried with back-off, never approved meanwhile', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
    nockGate(repo, POLICY, false);
    const refused = nockCallback(repo, 502);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(refused).toHaveLength(1);
    expect(await gateRow(repo)).toMatchObject({ state: 'pending', attempts: 1 });
    await sleep(1000);
    expect(await gateRow(repo)).toMatchObject({ state: 'pending' });
    const checks: CheckRun[] = [];
    const answers = nockCallback(repo, 204, checks);
    await until(() => answers.length > 0, 10_000);
    expect(answers[0]).toMatchObject({ state: 'approved' });
    await until(async () => (await gateRow(repo))?.state === 'approved');
    await until(() => checks.length > 0);
  }, 20_000);

  it('a pending gate is decided once, however many replicas sweep it', async () => {
    const repo = repository();
    const commit = sha();
    nockGate(repo, POLICY, false);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(await gateRow(repo)).toMatchObject({ state: 'pending' });
    const checks: CheckRun[] = [];
    const answers = nockCallback(repo, 204, checks);
    await issue(repo, commit);
    // two more replicas on the same store, racing the app's own sweeper
    const deps = gateDeps();
    const replica = {
      installationOctokit: async () => new TestOctokit({ auth: { token: TOKEN } }),
      log: silentLog,
    };
    await Promise.all([sweepGates(deps, replica), sweepGates(deps, replica)]);
    // the check run follows the answer: the test ends once it is written, so none strays
    await until(async () => (await gateRow(repo))?.state === 'approved' && checks.length > 0);
    await sleep(400);
    expect(answers).toHaveLength(1);
    expect(checks).toHaveLength(1);
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

  it('a callback URL on another origin, with this repository’s own run path: refused, nothing called or stored', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
    for (const origin of [
      'https://attacker.example',
      'http://api.github.com',
      'https://api.github.com:8443',
    ]) {
      const callbackUrl = `${origin}/repos/${repo.full_name}/actions/runs/1/deployment_protection_rule`;
      const res = await deliver(
        suite.ctx.app,
        'deployment_protection_rule',
        rulePayload(repo, commit, { callbackUrl }),
      );
      expect(res.statusCode, origin).toBe(500);
    }
    // no token asked, no policy read, no answer: the suite fails on any GitHub call made
    expect(await gateRow(repo)).toBeUndefined();
  });

  it('a revoked receipt that is not the newest of the set still rejects', async () => {
    const repo = repository();
    const commit = sha();
    const older = await issue(repo, commit);
    await sleep(5); // distinct creation times: the revoked one is the older
    const newer = await issue(repo, commit);
    await revoke(suite.tenant, older.id);
    expect(newer.createdAt.getTime()).toBeGreaterThan(older.createdAt.getTime());
    const answers = nockGate(repo, POLICY);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(answers[0]).toMatchObject({ state: 'rejected' });
    expect(answers[0]?.comment).toContain(`receipt ${older.id} is revoked`);
  });

  it('an environment named in another case than the policy: its entry, not *', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
    // `*` would approve; the `production` entry wants an OIDC-proven receipt, which this is not
    const yaml = 'deployments:\n  production:\n    identity: oidc\n  "*": {}\n';
    const answers = nockGate(repo, yaml);
    await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit, { environment: 'Production' }),
    );
    expect(answers[0]).toMatchObject({ state: 'rejected', environment_name: 'Production' });
    expect(answers[0]?.comment).toContain('identity not verified by an OIDC token of the run');
  });

  it('a callback URL that is not this repository’s run is never called', async () => {
    const repo = repository();
    const commit = sha();
    await issue(repo, commit);
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

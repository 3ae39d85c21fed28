import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { randomInt } from 'node:crypto';
import { createTestContext, tempDir as tempDirOf, type TestContext } from '../helpers/context.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc-issuer.js';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { runCli } from '../../src/cli/run.js';
import {
  closedPort,
  leaks,
  runAction,
  scriptedProxy,
  SHA,
  startStub,
  type Stub,
} from './harness.js';

/**
 * action/receipt.mjs against a real running service (fresh store, real HTTP on port 0), with a
 * fake runner token endpoint (ACTIONS_ID_TOKEN_REQUEST_URL/_TOKEN) that hands out OIDC tokens of
 * an issuer on loopback the service trusts.
 */

const AUDIENCE = 'https://receipts.action.test';
const RUNNER_BEARER = 'runner-request-token';
let ctx: TestContext;
let api: string;
let key: string;
let issuer: TestIssuer;
let tokenEndpoint: http.Server;
let tokenUrl: string;
const stubs: Stub[] = [];

beforeAll(async () => {
  issuer = await startIssuer(AUDIENCE);
  ctx = await createTestContext({ CI_OIDC_ISSUERS: issuer.url, CI_OIDC_AUDIENCE: AUDIENCE });
  api = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  key = await ctx.apiKey(['verify', 'read']);
  await ctx.repos.tenantPolicies.setCiRepositories('tenant-a', ['octo-org/*']);
  // the runner's token service: GET ?audience=... with the job's bearer token -> { value }
  tokenEndpoint = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://runner');
    if (req.headers.authorization !== `Bearer ${RUNNER_BEARER}`) {
      res.writeHead(401).end();
      return;
    }
    const claims = {
      repository: 'octo-org/widgets',
      sha: SHA,
      event_name: 'push',
      run_id: url.searchParams.get('run'),
      run_attempt: '1',
      workflow_ref: 'octo-org/widgets/.github/workflows/ci.yml@refs/heads/main',
      runner_environment: 'github-hosted',
    };
    void issuer.sign(claims, { audience: url.searchParams.get('audience') ?? '' }).then((value) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ value }));
    });
  });
  await new Promise<void>((resolve) => tokenEndpoint.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(tokenEndpoint.address() as { port: number }).port}/token`;
});
afterAll(async () => {
  await Promise.all(stubs.map((stub) => stub.close()));
  await ctx?.close();
  await issuer?.close();
  await new Promise((resolve) => tokenEndpoint?.close(resolve));
});

/** Runner variables of a job with `permissions: id-token: write`, for run `runId`. */
function withIdToken(runId = String(randomInt(1, 2 ** 47))): Record<string, string> {
  return {
    GITHUB_RUN_ID: runId,
    ACTIONS_ID_TOKEN_REQUEST_URL: `${tokenUrl}?run=${runId}`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: RUNNER_BEARER,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function getJson(path: string, method = 'GET') {
  const res = await fetch(`${api}${path}`, { method, headers: { 'x-api-key': key } });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe.concurrent("clean receipt (trusted push event, 40-hex sha, the run's OIDC token)", () => {
  it.each(['failure', 'compliance_gap', 'never'])(
    'exits 0 with fail-on %s and writes outputs and a job summary',
    async (failOn) => {
      const run = await runAction(
        { 'api-url': api, 'api-key': key, 'fail-on': failOn, 'oidc-audience': AUDIENCE },
        withIdToken(),
      );
      expect(run.code, run.stderr).toBe(0);
      const id = run.outputs['receipt-id'] ?? '';
      expect(id).toMatch(UUID);
      expect(run.outputs).toEqual({
        'receipt-id': id,
        'receipt-status': 'clean',
        conclusion: 'success',
        'receipt-url': `${api}/api/v1/receipt/${id}`,
        'bundle-path': path.join(
          run.runnerTemp,
          'verification-receipt',
          `receipt-${id}.bundle.json`,
        ),
        'attestation-path': path.join(
          run.runnerTemp,
          'verification-receipt',
          `receipt-${id}.sigstore.json`,
        ),
      });
      // the bundle the step saved verifies offline, with the service's JWKS pinned (its current
      // status is then unknown: --offline accepts that)
      const jwks = path.join(run.runnerTemp, 'jwks.json');
      fs.writeFileSync(jwks, JSON.stringify(await getJson('/.well-known/jwks.json')));
      const out: string[] = [];
      const verified = await runCli(
        ['verify', run.outputs['bundle-path'] ?? '', '--jwks', jwks, '--offline'],
        { out: (l) => out.push(l), err: (l) => out.push(l) },
        {},
      );
      expect(verified, out.join('\n')).toBe(0);
      const attestation = JSON.parse(
        fs.readFileSync(run.outputs['attestation-path'] ?? '', 'utf8'),
      );
      expect(attestation.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
      expect(run.stdout).toContain('::notice title=Verification receipt::');
      expect(run.summary).toContain('Verification receipt: Provenance verified (ALLOW)');
      expect(run.summary).toContain('`clean`');
      expect(run.summary).toContain(`(${api}/api/v1/receipt/${id})`);
      expect(run.summary).toContain('- Reasons: none');
      expect(leaks(run, key)).toEqual([]);
      expect(run.stdout).toContain("Sending the run's OIDC token");
      expect(run.stdout).toContain('::add-mask::ey');

      // the receipt-url works with a read key and the receipt commits to this run
      const stored = await getJson(`/api/v1/receipt/${id}`);
      expect((stored.receipt as { subject: unknown }).subject).toMatchObject({
        externalId: `octo-org/widgets/${run.runId}/1`,
        headSha: SHA,
        repository: 'octo-org/widgets',
        eventName: 'push',
        subjectKind: 'workflow_run',
        summary: `CI run ${run.runId}`,
      });
      expect(await getJson(`/api/v1/receipt/${id}/verify`, 'POST')).toMatchObject({
        verified: true,
        revoked: false,
      });
    },
  );

  it('records the artifact of subject-path: in the receipt and as a subject of its attestation', async () => {
    const artifact = path.join(tempDirOf(), 'dist.tgz');
    fs.writeFileSync(artifact, 'the build output');
    const sha = createHash('sha256').update('the build output').digest('hex');
    const run = await runAction(
      { 'api-url': api, 'api-key': key, 'subject-path': artifact, 'oidc-audience': AUDIENCE },
      withIdToken(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`artifact digest sha256:${sha}`);
    const stored = await getJson(`/api/v1/receipt/${run.outputs['receipt-id']}`);
    expect((stored.receipt as { subject: unknown }).subject).toMatchObject({
      artifactDigest: `sha256:${sha}`,
    });
    const attestation = JSON.parse(fs.readFileSync(run.outputs['attestation-path'] ?? '', 'utf8'));
    const statement = JSON.parse(
      Buffer.from(attestation.dsseEnvelope.payload, 'base64').toString(),
    );
    expect(statement.subject).toContainEqual({ name: expect.any(String), digest: { sha256: sha } });

    const both = await runAction({
      'api-url': api,
      'api-key': key,
      'subject-path': artifact,
      'subject-digest': `sha256:${sha}`,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('subject-digest or subject-path, not both');
    const bad = await runAction({ 'api-url': api, 'api-key': key, 'subject-digest': 'md5:abc' });
    expect(bad.code).toBe(2);
  });

  it('without id-token: write the receipt is compliance_gap, and the log and summary say why', async () => {
    const run = await runAction({ 'api-url': api, 'api-key': key, 'fail-on': 'compliance_gap' });
    expect(run.code, run.stderr).toBe(1);
    expect(run.outputs).toMatchObject({
      'receipt-status': 'compliance_gap',
      conclusion: 'neutral',
    });
    expect(run.stdout).toContain('permissions: id-token: write');
    expect(run.summary).toContain('No OIDC token was sent');
    expect(run.summary).toContain('identity_unverified');
  });

  it('is idempotent per workflow run attempt: a repeated step returns the same receipt', async () => {
    const runner = { GITHUB_RUN_ID: '777000111', GITHUB_RUN_ATTEMPT: '1' };
    const first = await runAction({ 'api-url': api, 'api-key': key }, runner);
    const [again, rerun] = await Promise.all([
      runAction({ 'api-url': `${api}/api/v1/`, 'api-key': key }, runner),
      runAction({ 'api-url': api, 'api-key': key }, { ...runner, GITHUB_RUN_ATTEMPT: '2' }),
    ]);
    expect([first.code, again.code, rerun.code]).toEqual([0, 0, 0]);
    expect(again.outputs['receipt-id']).toBe(first.outputs['receipt-id']);
    expect(rerun.outputs['receipt-id']).not.toBe(first.outputs['receipt-id']);
  });
});

describe.concurrent('failure receipt', () => {
  const untrusted = { GITHUB_EVENT_NAME: 'pull_request_target' };

  it.each([
    ['failure', 1],
    ['compliance_gap', 1],
    ['never', 0],
  ])('untrusted pull_request_target event with fail-on %s exits %i', async (failOn, code) => {
    const run = await runAction({ 'api-url': api, 'api-key': key, 'fail-on': failOn }, untrusted);
    expect(run.code, run.stderr).toBe(code);
    expect(run.outputs).toMatchObject({ 'receipt-status': 'failure', conclusion: 'failure' });
    expect(run.summary).toContain('Provenance check failed (BLOCK)');
    expect(run.summary).toContain('- Reasons: untrusted_trigger_event');
    if (code === 1) {
      expect(run.stderr).toContain('::error title=Verification receipt::');
      expect(run.stderr).toContain('failing because fail-on is');
      expect(run.summary).toContain('**This step failed:**');
    } else {
      expect(run.stdout).toContain('::warning title=Verification receipt::');
      expect(run.stdout).toContain('not failing because fail-on is never');
    }
    expect(leaks(run, key)).toEqual([]);
  });

  it('a malformed head sha fails the step with the default fail-on', async () => {
    const run = await runAction({ 'api-url': api, 'api-key': key }, { GITHUB_SHA: 'abc123' });
    expect(run.code).toBe(1);
    expect(run.outputs['receipt-status']).toBe('failure');
    expect(run.summary).toContain('malformed_commit_id');
  });
});

describe.concurrent('errors: no receipt, exit 2, nothing leaked', () => {
  it('401 (unknown key) fails at once with the ErrorResponse printed', async () => {
    const proxy = await scriptedProxy(api, []);
    stubs.push(proxy);
    const bad = `vrs_${'0'.repeat(32)}_${'A'.repeat(43)}`;
    const run = await runAction({ 'api-url': proxy.url, 'api-key': bad, 'max-attempts': '5' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '::error title=Verification receipt::receipt service answered HTTP 401 unauthorized: invalid or revoked API key',
    );
    expect(proxy.requests).toHaveLength(1); // no retry of a 4xx
    expect(run.outputs).toEqual({});
    expect(run.summary).toContain('not issued');
    expect(leaks(run, bad)).toEqual([]);
    expect(run.stdout).toContain(`::add-mask::${bad}`);
  });

  it('403 (key without the verify scope) fails at once', async () => {
    const readOnly = await ctx.apiKey(['read']);
    const run = await runAction({ 'api-url': api, 'api-key': readOnly });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("HTTP 403 forbidden: this API key lacks the 'verify' scope");
    expect(leaks(run, readOnly)).toEqual([]);
  });

  it('400 (a repository name the contract rejects) prints the validation details', async () => {
    const run = await runAction(
      { 'api-url': api, 'api-key': key },
      { GITHUB_REPOSITORY: 'not a repo' },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('HTTP 400 validation_failed');
    expect(run.stderr).toContain('owner/repo');
    expect(leaks(run, key)).toEqual([]);
  });

  it('an unreachable service fails with a clear message in bounded time', async () => {
    const port = await closedPort();
    const run = await runAction({
      'api-url': `http://127.0.0.1:${port}`,
      'api-key': key,
      'max-attempts': '2',
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('retrying in');
    expect(run.stderr).toContain(
      `could not reach the receipt service at http://127.0.0.1:${port} (connect ECONNREFUSED`,
    );
    expect(run.stderr).toContain('gave up after 2 attempt(s)');
    expect(run.ms).toBeLessThan(6_000);
    expect(leaks(run, key)).toEqual([]);
  });

  it('a service that never answers hits the per-request timeout', async () => {
    const silent = await startStub(() => undefined);
    stubs.push(silent);
    const run = await runAction({
      'api-url': silent.url,
      'api-key': key,
      'timeout-seconds': '1',
      'max-attempts': '1',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `no answer from ${silent.url}/api/v1/verifications/ci within 1 s (timeout-seconds)`,
    );
    expect(run.ms).toBeLessThan(5_000);
  });

  it.each([
    [{ 'api-key': 'k' }, 'input api-url is required'],
    [{ 'api-url': 'http://127.0.0.1:1' }, 'input api-key is required'],
    [{ 'api-url': 'ftp://example.com', 'api-key': 'k' }, 'api-url must be an http(s) URL'],
    [
      { 'api-url': 'http://127.0.0.1:1', 'api-key': 'k', 'fail-on': 'sometimes' },
      'fail-on must be one of',
    ],
    [
      { 'api-url': 'http://127.0.0.1:1', 'api-key': 'k', 'max-attempts': '0' },
      'max-attempts must be',
    ],
  ])('rejects bad inputs %j before any request', async (inputs, message) => {
    const run = await runAction(inputs);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('outside a runner (no GITHUB_SHA) it says so', async () => {
    const run = await runAction({ 'api-url': api, 'api-key': key }, { GITHUB_SHA: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('GITHUB_SHA is not set');
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiIdentityEvidence } from '../../../src/receipts/ci-identity/identity.js';
import { createTestContext, tempDir, type TestContext } from '../../../test/helpers/context.js';
import { main } from '../src/cli/main.js';

/**
 * The CI identity options of receipt-verify against CI receipts the service really issued and
 * signed: a deploy script's policy (repository, commit, signer workflow, runner, profile) checked
 * offline against the bundle and the signed status saved with it, each unmet condition named,
 * exit 3 for an authentic receipt that misses one.
 */
const TENANT = 'tenant-ci-policy';
const REPO = 'acme/app';
let ctx: TestContext;
let dir: string;
let jwks: string;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.repos.tenantPolicies.setCiRepositories(TENANT, ['acme/*']);
  dir = tempDir('ci-policy-');
  jwks = path.join(dir, 'jwks.json');
  fs.writeFileSync(jwks, (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
});
afterAll(async () => ctx.close());

/** A CI receipt issued for `sha`, saved as its bundle; the path of the file. */
async function issued(sha: string, claims: Record<string, string> | 'github-app') {
  const run = String(Math.floor(Math.random() * 1e9));
  const identity: CiIdentityEvidence =
    claims === 'github-app'
      ? { kind: 'github-app', installationId: 7 }
      : {
          kind: 'oidc-valid',
          claims: {
            issuer: 'https://token.actions.githubusercontent.com',
            repository: REPO,
            sha,
            event_name: 'push',
            run_id: run,
            run_attempt: '1',
            jti: randomUUID(),
            exp: Math.floor(Date.now() / 1000) + 600,
            ...claims,
          },
        };
  const { record } = await ctx.app.services.receipts.issueCi(
    TENANT,
    {
      externalId: `${REPO}/${run}/1`,
      headSha: sha,
      subject: { kind: 'workflow_run', summary: 'release' },
      repository: { fullName: REPO, htmlUrl: `https://github.com/${REPO}` },
      provenance: { eventName: 'push' },
    },
    { identity },
  );
  const file = path.join(dir, `${record.id}.json`);
  const bundle = await ctx.app.services.receipts.bundle(TENANT, record.id);
  // the service's signed status of the receipt, kept with the bundle: its status is known
  const status = await ctx.app.services.receipts.publicStatus(record.receipt.receiptHash);
  fs.writeFileSync(file, JSON.stringify({ ...bundle, status }));
  return file;
}

async function verify(...args: string[]) {
  const out: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out: out.join('\n') };
}

const sha = () => randomBytes(20).toString('hex');
const RELEASE = `${REPO}/.github/workflows/release.yml@refs/heads/main`;

describe('receipt-verify CI identity options', () => {
  it('a receipt that meets every condition, its fresh signed status kept with it: exit 0', async () => {
    const commit = sha();
    const file = await issued(commit, {
      workflow_ref: RELEASE,
      runner_environment: 'github-hosted',
    });
    const res = await verify(
      file,
      '--jwks',
      jwks,
      '--repo',
      'ACME/app',
      '--sha',
      commit,
      '--signer-workflow',
      '.github/workflows/release.yml',
      '--deny-self-hosted-runners',
      '--profile',
      'ci-provenance-v1',
    );
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(/^PASS {2}status-signature .*\(carried in the bundle\)$/m);
    expect(res.out).toContain('PASS  ci-policy        every CI policy condition is met');
  });

  it('each unmet condition is named: exit 3 (authentic, policy not met)', async () => {
    const commit = sha();
    const file = await issued(commit, {
      workflow_ref: `${REPO}/.github/workflows/test.yml@refs/heads/main`,
      runner_environment: 'self-hosted',
    });
    const other = sha();
    const res = await verify(
      file,
      '--jwks',
      jwks,
      '--repo',
      'acme/other',
      '--sha',
      other,
      '--signer-workflow',
      '.github/workflows/release.yml',
      '--deny-self-hosted-runners',
      '--profile',
      'ci-provenance-v2',
      '--json',
    );
    expect(res.code).toBe(3);
    const report = JSON.parse(res.out) as { verdict: string; policy: { failures: string[] } };
    expect(report.verdict).toBe('rejected');
    expect(report.policy.failures).toEqual([
      `repository is ${REPO}, not acme/other`,
      `commit is ${commit}, not ${other}`,
      'signer workflow is .github/workflows/test.yml, not .github/workflows/release.yml',
      'the run used a self-hosted runner',
      'policy profile is ci-provenance-v1, not ci-provenance-v2',
    ]);
  });

  it('a receipt without an OIDC-proven workflow or runner does not meet those conditions', async () => {
    const file = await issued(sha(), 'github-app');
    const res = await verify(
      file,
      '--jwks',
      jwks,
      '--signer-workflow',
      '.github/workflows/release.yml',
      '--deny-self-hosted-runners',
    );
    expect(res.code).toBe(3);
    expect(res.out).toContain(
      'FAIL  ci-policy        the signer workflow is not proven by an OIDC token of the run',
    );
    expect(res.out).toContain(
      'FAIL  ci-policy        the runner is not proven to be GitHub-hosted',
    );
  });

  it('a malformed condition is a usage error (exit 2)', async () => {
    const file = await issued(sha(), { workflow_ref: RELEASE });
    expect((await verify(file, '--jwks', jwks, '--repo', 'acme')).code).toBe(2);
    expect((await verify(file, '--jwks', jwks, '--sha', 'abc')).code).toBe(2);
    expect((await verify(file, '--jwks', jwks, '--signer-workflow', 'release.yml')).code).toBe(2);
  });
});

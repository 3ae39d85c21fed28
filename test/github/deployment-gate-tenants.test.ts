import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf } from '../helpers/ci-run.js';
import { startIssuer } from '../helpers/oidc-issuer.js';
import { sleep, until } from '../helpers/until.js';
import { deliver, nockRepoConfig, unmatched } from './helpers.js';
import { gateKit, sha, type CheckRun, type Repository } from './gate-helpers.js';
import { githubSuite } from './suite.js';

/**
 * No tenant can decide another's deployments. Tenant B holds a valid OIDC token of its own
 * repository (any repository can mint one for the service's audience) and sends it with a CI
 * request about the victim's repository and commit: the receipt is BLOCK (identity_mismatch) and
 * proves nothing, so neither it nor its revocation touches the victim's gate. Nor does a flood of
 * B's receipts about the victim's commit push the victim's receipt out of the gate's lookup.
 */
const AUDIENCE = 'https://receipts.test';
const issuer = await startIssuer(AUDIENCE);
const suite = githubSuite({
  DEPLOYMENT_GATE_POLL_MS: '100',
  CI_OIDC_ISSUERS: issuer.url,
  CI_OIDC_AUDIENCE: AUDIENCE,
});
const { repository, rulePayload, gateRow, nockCallback, nockGate, issue, revoke } = gateKit(suite);
const POLICY = 'deployments:\n  production:\n    identity: proven\n';
const ATTACKER = 'tenant-b';

beforeAll(() => {
  // the OIDC issuer answers on loopback: its discovery and keys are real requests
  nock.enableNetConnect(new URL(issuer.url).host);
});
afterAll(() => issuer.close());
// runs before the suite's own check (hooks unwind in reverse): loopback calls are not GitHub's
afterEach(() => {
  const github = unmatched.filter((call) => !call.includes(new URL(issuer.url).host));
  unmatched.splice(0, unmatched.length, ...github);
});

/** Tenant B's request about the victim's commit, with B's own token (of attacker-org/tool). */
async function attackerReceipt(repo: Repository, commit: string): Promise<string> {
  const runId = String(Math.floor(Math.random() * 1e9));
  const token = await issuer.sign({
    repository: 'attacker-org/tool',
    sha: commit,
    event_name: 'push',
    run_id: runId,
    run_attempt: '1',
    workflow_ref: 'attacker-org/tool/.github/workflows/x.yml@refs/heads/main',
    runner_environment: 'github-hosted',
  });
  const res = await suite.ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: {
      'x-api-key': await suite.ctx.apiKey(['verify', 'read'], ATTACKER),
      'x-ci-oidc-token': token,
    },
    payload: bodyOf({
      externalId: `${repo.full_name}/${runId}/1`,
      headSha: commit,
      subject: { kind: 'workflow_run', summary: 'release' },
      repository: { fullName: repo.full_name, htmlUrl: repo.html_url },
      provenance: { eventName: 'push' },
    }),
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ receiptId: string }>().receiptId;
}

/** B revokes its own receipt, as any tenant may. */
const revokeAsAttacker = (receiptId: string) => revoke(ATTACKER, receiptId);

describe('another tenant cannot decide the deployment', () => {
  it("B's receipt with B's own token is BLOCK and records the token as refused, not as oidc", async () => {
    const repo = repository();
    const commit = sha();
    const receiptId = await attackerReceipt(repo, commit);
    const key = await suite.ctx.apiKey(['read'], ATTACKER);
    const res = await suite.ctx.app.inject({
      url: `/api/v1/receipt/${receiptId}`,
      headers: { 'x-api-key': key },
    });
    type Receipt = {
      decision: string;
      reasons: string[];
      subject: { identity: Record<string, unknown> };
    };
    const body = res.json<{ receipt?: Receipt } & Receipt>();
    const receipt = body.receipt ?? body;
    expect(receipt.decision).toBe('BLOCK');
    expect(receipt.reasons).toContain('identity_mismatch');
    expect(receipt.subject.identity).toMatchObject({
      source: 'refused',
      reason: 'identity_mismatch',
      claimed: { source: 'oidc', repository: 'attacker-org/tool', sha: commit },
    });
  });

  it("B's revoked BLOCK receipt does not reject the victim's deployment", async () => {
    const repo = repository();
    const commit = sha();
    const victim = await issue(repo, commit);
    await revokeAsAttacker(await attackerReceipt(repo, commit));
    const answers = nockGate(repo, POLICY);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(answers).toEqual([expect.objectContaining({ state: 'approved' })]);
    expect(answers[0]?.comment).toContain(`receipt ${victim.id} meets the policy`);
  });

  it("before the victim's receipt exists, B's BLOCK (revoked or not) does not reject: pending", async () => {
    const repo = repository();
    const commit = sha();
    await attackerReceipt(repo, commit);
    await revokeAsAttacker(await attackerReceipt(repo, commit));
    nockGate(repo, POLICY, false);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    await sleep(400); // several sweeps of DEPLOYMENT_GATE_POLL_MS
    expect(await gateRow(repo)).toMatchObject({ state: 'pending' });
    const checks: CheckRun[] = [];
    const answers = nockCallback(repo, 204, checks);
    const victim = await issue(repo, commit);
    await until(() => answers.length > 0);
    expect(answers[0]).toMatchObject({ state: 'approved' });
    expect(answers[0]?.comment).toContain(`receipt ${victim.id} meets the policy`);
    // the check run follows the answer: the test ends once it is written, so none strays
    await until(async () => (await gateRow(repo))?.state === 'approved' && checks.length > 0);
  });

  it('1,000 newer receipts of another tenant about the commit leave the decision as it was', async () => {
    const repo = repository();
    const commit = sha();
    const victim = await issue(repo, commit);
    const before = nockGate(repo, POLICY);
    await deliver(suite.ctx.app, 'deployment_protection_rule', rulePayload(repo, commit));
    expect(before[0]).toMatchObject({ state: 'approved' });
    // half with B's own token (refused), half claiming the App's proof while held by tenant B
    const refused = { tenant: ATTACKER, oidc: { repository: 'attacker-org/tool' } };
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          issue(repo, commit, i % 2 === 0 ? refused : { tenant: ATTACKER }),
        ),
      );
    }
    const flood = (await suite.ctx.db
      .knex('receipts')
      .where({ tenant: ATTACKER })
      .whereRaw(`body->'subject'->>'headSha' = ?`, [commit])
      .count('* as n')
      .first()) as { n: string | number };
    expect(Number(flood.n)).toBe(1000);
    nockRepoConfig(repo.owner.login, repo.name, POLICY); // the installation token is cached
    const after = nockCallback(repo);
    await deliver(
      suite.ctx.app,
      'deployment_protection_rule',
      rulePayload(repo, commit, { deploymentId: 2 }),
    );
    expect(after).toEqual([expect.objectContaining({ state: 'approved' })]);
    expect(after[0]?.comment).toContain(`receipt ${victim.id} meets the policy`);
  }, 120_000);
});

import { sleep, until as untilWithin } from '../helpers/until.js';
import { randomBytes } from 'node:crypto';
import nock from 'nock';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { sweepGates, type GateSweeperDeps } from '../../src/github/gate-runner.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { closeStore, testConfig } from '../helpers/context.js';
import { APP_ID, freshInstallationId, workflowRunPayload } from './fixtures.js';
import {
  deliver,
  GITHUB_API,
  githubEnv,
  nockRepoConfig,
  nockToken,
  PUBLIC_URL,
  TOKEN,
  unmatched,
} from './helpers.js';
import { TestOctokit } from './test-octokit.js';

/**
 * A restart between the deployment's request and its receipt: the gate is stored pending by one
 * app, that app is closed with its store (as a process exit would), and the app built next on the
 * same store decides it once, when the receipt arrives; a third app decides nothing again.
 */

interface Running {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Database;
}

let config: Config;
const installationId = freshInstallationId();
const tenant = `github-installation-${installationId}`;
const { repository: repo } = workflowRunPayload(installationId, 'completed');
const runId = Math.floor(Math.random() * 1e9);
const commit = randomBytes(20).toString('hex');
const POLICY = 'deployments:\n  production:\n    identity: proven\n';

async function start(): Promise<Running> {
  const db = await openDatabase(config.store);
  const app = await buildApp({ config, db, logger: false, octokit: TestOctokit });
  await app.ready();
  return { app, db };
}

async function stop(running: Running, last = false): Promise<void> {
  await running.app.close();
  if (last) await closeStore(running.db, config.store);
  else await running.db.close();
}

beforeAll(() => {
  nock.disableNetConnect();
  unmatched.splice(0);
  config = testConfig({ ...githubEnv(), DEPLOYMENT_GATE_POLL_MS: '100' });
});
afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

const until = (check: () => boolean | Promise<boolean>) => untilWithin(check, 10_000);

async function gateState(db: Database): Promise<string | undefined> {
  const row = (await db
    .knex('deployment_gates')
    .where({ repository: repo.full_name, tenant })
    .first()) as { state: string } | undefined;
  return row?.state;
}

function rulePayload() {
  return {
    action: 'requested',
    environment: 'production',
    event: 'push',
    deployment_callback_url: `${GITHUB_API}/repos/${repo.full_name}/actions/runs/${runId}/deployment_protection_rule`,
    deployment: { id: 7, sha: commit, ref: 'main', environment: 'production' },
    repository: repo,
    installation: { id: installationId, node_id: 'MDIzOkludGVncmF0aW9u' },
    sender: repo.owner,
  };
}

/** The one approving callback and the decision's check run, bodies collected. */
function nockDecision() {
  const answers: { state: string }[] = [];
  const checks: { conclusion: string; head_sha: string }[] = [];
  const path = `/repos/${repo.full_name}`;
  nock(GITHUB_API, { reqheaders: { authorization: `token ${TOKEN}` } })
    .post(`${path}/actions/runs/${runId}/deployment_protection_rule`, (body: { state: string }) => {
      answers.push(body);
      return true;
    })
    .reply(204)
    .get(new RegExp(`^${path}/commits/${commit}/check-runs\\?`))
    .reply(200, { total_count: 0, check_runs: [] })
    .post(`${path}/check-runs`, (body: { conclusion: string; head_sha: string }) => {
      checks.push(body);
      return true;
    })
    .reply(201, { id: 1 });
  return { answers, checks };
}

function expectNoGitHubCallsLeft() {
  expect(nock.pendingMocks(), 'GitHub calls expected but not made').toEqual([]);
  expect(unmatched.splice(0), 'GitHub calls made but not expected').toEqual([]);
}

it('requested, restart, receipt: decided once by the next app; a third app does not answer again', async () => {
  // the request arrives with no receipt yet: stored pending, not answered
  const first = await start();
  nockToken(installationId);
  nockRepoConfig(repo.owner.login, repo.name, POLICY);
  const res = await deliver(first.app, 'deployment_protection_rule', rulePayload());
  expect(res.statusCode).toBe(200);
  expect(await gateState(first.db)).toBe('pending');
  await sleep(300);
  expectNoGitHubCallsLeft();
  await stop(first);

  // a new process on the same store; the CI receipt arrives and its sweeper decides the gate
  const second = await start();
  expect(await gateState(second.db)).toBe('pending');
  nockToken(installationId);
  const { answers, checks } = nockDecision();
  await second.app.services.receipts.issueCi(
    tenant,
    {
      externalId: `${repo.full_name}/${runId}/1`,
      headSha: commit,
      subject: { kind: 'workflow_run', summary: 'release' },
      repository: { fullName: repo.full_name, htmlUrl: repo.html_url },
      provenance: { eventName: 'push' },
    },
    { identity: { kind: 'github-app', installationId } },
  );
  await until(() => checks.length > 0);
  expect(answers).toEqual([expect.objectContaining({ state: 'approved' })]);
  expect(checks[0]).toMatchObject({ conclusion: 'success', head_sha: commit });
  expect(await gateState(second.db)).toBe('approved');
  expectNoGitHubCallsLeft();
  await stop(second);

  // another restart: its sweeper and an explicit sweep find nothing left to answer
  const third = await start();
  const { services } = third.app;
  await sweepGates(
    {
      appId: APP_ID,
      publicUrl: PUBLIC_URL,
      defaultTrustedEvents: [],
      receipts: services.receipts,
      gates: services.deploymentGates,
    },
    {
      installationOctokit: async () => new TestOctokit({ auth: { token: TOKEN } }),
      log: pino({ level: 'silent' }) as unknown as GateSweeperDeps['log'],
    },
  );
  await sleep(500);
  expect(answers).toHaveLength(1);
  expect(await gateState(third.db)).toBe('approved');
  expectNoGitHubCallsLeft();
  await stop(third, true);
}, 60_000);

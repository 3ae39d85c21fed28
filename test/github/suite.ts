import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { freshInstallationId } from './fixtures.js';
import { TestOctokit } from './test-octokit.js';
import { githubEnv, unmatched } from './helpers.js';

export interface GitHubSuite {
  ctx: TestContext;
  /** This test's installation (new per test) and its tenant. */
  installationId: number;
  tenant: string;
}

/**
 * One app (with the GitHub App enabled) per test file, no network, a new installation per
 * test, and after each test: every nocked GitHub call was made and no other call was tried.
 * The app gets the test Octokit (no retries, no throttling) through `buildApp`'s option.
 */
export function githubSuite(env: Record<string, string> = {}): GitHubSuite {
  const suite = {} as GitHubSuite;
  beforeAll(async () => {
    nock.disableNetConnect();
    suite.ctx = await createTestContext({ ...githubEnv(), ...env }, undefined, {
      octokit: TestOctokit,
    });
  });
  afterAll(async () => {
    await suite.ctx.close();
    nock.enableNetConnect();
  });
  beforeEach(() => {
    // requests made before this test (other files share the worker and nock's emitter) are not its
    unmatched.splice(0);
    suite.installationId = freshInstallationId();
    suite.tenant = `github-installation-${suite.installationId}`;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    const pending = nock.pendingMocks();
    const strays = unmatched.splice(0);
    nock.cleanAll();
    expect(pending, 'GitHub calls expected but not made').toEqual([]);
    expect(strays, 'GitHub calls made but not expected').toEqual([]);
  });
  return suite;
}

import { describe, expect } from 'vitest';
import { describeStore } from '../../src/cli/store.js';
import { runCaptured } from '../helpers/cli.js';
import type { TestContext } from '../helpers/context.js';
import { it as base } from '../helpers/fixtures.js';
import { ciRequest } from '../http/hostile/requests.js';

/**
 * `receipts tenants policy`: a tenant pins the repositories its keys may get CI receipts for;
 * a request for any other is a FAIL `repository_not_allowed`.
 */

interface Receipt {
  policyProfile: string;
  reasons: string[];
  checks: { checkId: string; status: string }[];
}

/** The file's commands and requests, on the fixture's app and with its key. */
function commands(ctx: TestContext, key: string) {
  /** `receipts tenants policy --tenant <tenant> ...`, in process against the test app's store. */
  const policy = (tenant: string, ...args: string[]) =>
    runCaptured(['tenants', 'policy', '--tenant', tenant, ...args], {}, ctx.app.services);
  /** The line a command that changed the store ends with. */
  const storeLine = () => `\nstore: ${describeStore(ctx.app.services.config.store, true)}`;

  /** Issues a CI receipt with `apiKey` and reads it back. */
  async function issueCi(apiKey: string, request = ciRequest()) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verifications/ci',
      headers: { 'x-api-key': apiKey },
      payload: request,
    });
    const id = res.json().receiptId as string;
    const read = await ctx.app.inject({
      url: `/api/v1/receipt/${id}`,
      headers: { 'x-api-key': apiKey },
    });
    return { status: res.json().receiptStatus as string, receipt: read.json().receipt as Receipt };
  }

  async function repositoryCheck(fullName: string) {
    const request = ciRequest();
    request.repository = { fullName, htmlUrl: `https://github.com/${fullName}` };
    const { status, receipt } = await issueCi(key, request);
    return {
      status,
      check: receipt.checks.find((c) => c.checkId === 'ci.repository')?.status,
      reasons: receipt.reasons as string[],
    };
  }
  return { policy, storeLine, issueCi, repositoryCheck };
}

const it = base.extend('tenants', async ({ ctx, key }) => commands(ctx, key));

describe('tenants policy', () => {
  it('pins the CI repositories of a tenant, shows and clears it', async ({ tenants }) => {
    const { policy, storeLine, repositoryCheck } = tenants;
    expect((await policy('tenant-a')).out).toBe(
      'tenant tenant-a may get CI receipts for any repository; CI profile ci-provenance-v1 (default)',
    );
    const set = await policy('tenant-a', '--ci-repositories', 'acme/*, other/one');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toBe(
      'tenant tenant-a may get CI receipts for acme/*, other/one only; CI profile ci-provenance-v1 (default)' +
        storeLine(),
    );

    expect(await repositoryCheck('acme/widgets')).toMatchObject({ check: 'PASS' });
    expect(await repositoryCheck('ACME/Gadgets')).toMatchObject({ check: 'PASS' });
    expect(await repositoryCheck('other/one')).toMatchObject({ check: 'PASS' });
    expect(await repositoryCheck('torvalds/linux')).toMatchObject({
      status: 'failure',
      check: 'FAIL',
      reasons: expect.arrayContaining(['repository_not_allowed']),
    });
    expect(await repositoryCheck('other/two')).toMatchObject({ check: 'FAIL' });

    const cleared = await policy('tenant-a', '--clear');
    expect(cleared.out).toContain('policy removed');
    expect(await repositoryCheck('torvalds/linux')).toMatchObject({ check: 'PASS' });
  });

  it('refuses patterns that are not owner/* or owner/repo (exit 2)', async ({ tenants }) => {
    const { policy } = tenants;
    for (const bad of ['*', 'acme', 'acme/*/x', 'bad-/*', 'acme/..', ' , ']) {
      const res = await policy('t', '--ci-repositories', bad);
      expect(res.code, bad).toBe(2);
      expect(res.err).toContain('owner/* or owner/repo');
    }
    const both = await policy('t', '--ci-repositories', 'a/*', '--clear');
    expect(both.code).toBe(2);
  });

  it("pins the CI profile, which then judges the tenant's receipts, and unpins it", async ({
    tenants,
    ctx,
  }) => {
    const { policy, storeLine, issueCi } = tenants;
    const set = await policy('tenant-p', '--ci-profile', 'ci-provenance-v2');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toBe(
      `tenant tenant-p may get CI receipts for any repository; CI profile ci-provenance-v2${storeLine()}`,
    );
    const pKey = await ctx.apiKey(['verify', 'read'], 'tenant-p');
    const issue = async () => (await issueCi(pKey)).receipt;
    expect(await issue()).toMatchObject({
      policyProfile: 'ci-provenance-v2',
      reasons: ['identity_unverified', 'runner_unverified', 'default_branch_unverified'],
    });

    // repositories and profile are kept side by side; `default` unpins only the profile
    await policy('tenant-p', '--ci-repositories', 'acme/*');
    const unpinned = await policy('tenant-p', '--ci-profile', 'default');
    expect(unpinned.out).toBe(
      'tenant tenant-p may get CI receipts for acme/* only; CI profile ci-provenance-v1 (default)' +
        storeLine(),
    );
    await policy('tenant-p', '--clear');
    expect(await issue()).toMatchObject({ policyProfile: 'ci-provenance-v1' });
  });

  it('refuses an unknown profile (exit 2) naming the known ones', async ({ tenants }) => {
    const { policy } = tenants;
    const res = await policy('t', '--ci-profile', 'ci-provenance-v9');
    expect(res.code).toBe(2);
    expect(res.err).toContain('ci-provenance-v1, ci-provenance-v2 or default');
  });
});

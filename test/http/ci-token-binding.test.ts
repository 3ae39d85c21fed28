import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { bodyOf, runRequest, type RunRequest } from '../helpers/ci-run.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc-issuer.js';

/**
 * One OIDC token proves one run once, for a tenant whose policy claims the repository: the
 * replay of the review (one token, another externalId, another tenant, another artifact) fails.
 */

const AUDIENCE = 'https://receipts.test';
let issuer: TestIssuer;
let ctx: TestContext;
let keyA: string;
let keyB: string;
let keyUnclaimed: string;

beforeAll(async () => {
  issuer = await startIssuer(AUDIENCE);
  ctx = await createTestContext({
    CI_OIDC_ISSUERS: issuer.url,
    CI_OIDC_AUDIENCE: AUDIENCE,
    CI_OIDC_JWKS_COOLDOWN_MS: '0',
  });
  keyA = await ctx.apiKey(['verify', 'read'], 'tenant-a');
  keyB = await ctx.apiKey(['verify', 'read'], 'tenant-b');
  keyUnclaimed = await ctx.apiKey(['verify', 'read'], 'tenant-c');
  for (const tenant of ['tenant-a', 'tenant-b']) {
    await ctx.repos.tenantPolicies.setCiRepositories(tenant, ['octo-org/*']);
  }
});
afterAll(async () => {
  await ctx.close();
  await issuer.close();
});

const claimsOf = (request: RunRequest, attempt = '1') => ({
  repository: request.repository.fullName,
  sha: request.headSha,
  event_name: request.provenance.eventName,
  run_id: request.runId,
  run_attempt: attempt,
});

async function send(
  key: string,
  request: RunRequest,
  headers: Record<string, string> = {},
): Promise<{ receiptStatus: string; receiptId: string; reasons: string[]; id: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': key, ...headers },
    payload: bodyOf(request),
  });
  expect(res.statusCode, res.body).toBe(200);
  const stored = await ctx.app.inject({
    url: `/api/v1/receipt/${res.json().receiptId}`,
    headers: { 'x-api-key': key },
  });
  const receipt = stored.json().receipt ?? stored.json();
  return { ...res.json(), reasons: receipt.reasons, id: res.json().receiptId };
}

const custom = (externalId: string): RunRequest => ({
  ...runRequest('octo-org/widgets'),
  externalId,
});

describe('an OIDC token is bound to its run, used once, for a tenant that claims the repository', () => {
  it('a custom externalId without x-ci-run names no run: identity_mismatch', async () => {
    const request = custom(`release-build-${Date.now()}`);
    const token = await issuer.sign(claimsOf(request));
    const got = await send(keyA, request, { 'x-ci-oidc-token': token });
    expect(got.receiptStatus).toBe('failure');
    expect(got.reasons).toContain('identity_mismatch');
  });

  it('a custom externalId with x-ci-run of the token run: clean; another attempt: mismatch', async () => {
    const request = custom(`release-build-a-${Date.now()}`);
    const token = await issuer.sign(claimsOf(request));
    const ok = await send(keyA, request, {
      'x-ci-oidc-token': token,
      'x-ci-run': `${request.runId}/1`,
    });
    expect(ok.receiptStatus).toBe('clean');
    const other = custom(`release-build-b-${Date.now()}`);
    const second = await send(keyA, other, {
      'x-ci-oidc-token': await issuer.sign(claimsOf(other, '1')),
      'x-ci-run': `${other.runId}/2`,
    });
    expect(second.reasons).toContain('identity_mismatch');
  });

  it('the same token again: same tenant and externalId is the same receipt, anything else identity_replayed', async () => {
    const request = runRequest('octo-org/widgets');
    const token = await issuer.sign(claimsOf(request));
    const first = await send(keyA, request, { 'x-ci-oidc-token': token });
    expect(first.receiptStatus).toBe('clean');
    const retry = await send(keyA, request, { 'x-ci-oidc-token': token });
    expect(retry.id).toBe(first.id);

    const sameTenant = await send(
      keyA,
      { ...request, externalId: `release-build-${Date.now()}` },
      { 'x-ci-oidc-token': token, 'x-ci-run': `${request.runId}/1` },
    );
    expect(sameTenant.receiptStatus).toBe('failure');
    expect(sameTenant.reasons).toContain('identity_replayed');

    const otherTenant = await send(keyB, request, {
      'x-ci-oidc-token': token,
      'x-ci-subject-digest': `sha256:${'e'.repeat(64)}`,
    });
    expect(otherTenant.receiptStatus).toBe('failure');
    expect(otherTenant.reasons).toEqual(['identity_replayed']);
    const attestation = await ctx.app.inject({
      url: `/api/v1/receipt/${otherTenant.id}/attestation`,
      headers: { 'x-api-key': keyB },
    });
    const statement = JSON.parse(
      Buffer.from(attestation.json().dsseEnvelope.payload, 'base64').toString(),
    );
    expect(statement.predicate.verificationResult).toBe('FAILED');
  });

  it('past exp but within the clock skew the token still verifies, and its use is still kept', async () => {
    const request = runRequest('octo-org/widgets');
    const token = await issuer.sign(claimsOf(request), { expiresIn: 1 });
    const exp = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).exp;
    expect((await send(keyA, request, { 'x-ci-oidc-token': token })).receiptStatus).toBe('clean');
    // exp + 1 s: inside CI_OIDC_CLOCK_SKEW_SECONDS (60), so the verifier accepts the token
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 + 1_000 - Date.now()));
    const sameTenant = await send(
      keyA,
      { ...request, externalId: `release-build-late-${Date.now()}` },
      { 'x-ci-oidc-token': token, 'x-ci-run': `${request.runId}/1` },
    );
    expect(sameTenant.reasons).toEqual(['identity_replayed']);
    const otherTenant = await send(keyB, request, { 'x-ci-oidc-token': token });
    expect(otherTenant.reasons).toEqual(['identity_replayed']);
  });

  it('a tenant without a repository policy: repository_unclaimed (WARN, never clean)', async () => {
    const request = runRequest('octo-org/widgets');
    const got = await send(keyUnclaimed, request, {
      'x-ci-oidc-token': await issuer.sign(claimsOf(request)),
    });
    expect(got.receiptStatus).toBe('compliance_gap');
    expect(got.reasons).toEqual(['repository_unclaimed']);
  });

  it('a policy that does not admit the repository: repository_not_allowed', async () => {
    const request = runRequest('octo-orgevil/widgets');
    const got = await send(keyA, request, {
      'x-ci-oidc-token': await issuer.sign(claimsOf(request)),
    });
    expect(got.receiptStatus).toBe('failure');
    expect(got.reasons).toEqual(['repository_not_allowed']);
  });

  it('an issuer is matched exactly: a token from <trusted issuer>.evil is identity_invalid', async () => {
    const request = runRequest('octo-org/widgets');
    const token = await issuer.sign(claimsOf(request), { issuer: `${issuer.url}.evil` });
    const got = await send(keyA, request, { 'x-ci-oidc-token': token });
    expect(got.reasons).toEqual(['identity_invalid']);
  });

  it('a malformed x-ci-run or x-ci-subject-digest is 400 validation_failed, not 401', async () => {
    for (const headers of [{ 'x-ci-run': 'run-100' }, { 'x-ci-subject-digest': 'sha256:XYZ' }]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/verifications/ci',
        headers: { 'x-api-key': keyA, ...headers },
        payload: bodyOf(runRequest('octo-org/widgets')),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('validation_failed');
    }
  });
});

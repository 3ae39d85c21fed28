import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiVerificationRequest } from '../../src/contract/ci.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { bodyOf, runRequest } from '../helpers/ci-run.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc-issuer.js';

/**
 * `ci.identity`: the run's OIDC token (x-ci-oidc-token) verified with jose against a real issuer
 * on loopback (discovery, JWKS, RSA and EC keys, rotation); claims must match the request. No
 * token is a WARN (compliance_gap), every bad token a FAIL, never a 500 and never a PASS.
 */

const AUDIENCE = 'https://receipts.test';
let issuer: TestIssuer;
let ctx: TestContext;
let key: string;

beforeAll(async () => {
  issuer = await startIssuer(AUDIENCE);
  ctx = await createTestContext({
    CI_OIDC_ISSUERS: issuer.url,
    CI_OIDC_AUDIENCE: AUDIENCE,
    CI_OIDC_JWKS_COOLDOWN_MS: '0',
  });
  key = await ctx.apiKey(['verify', 'read']);
  await ctx.repos.tenantPolicies.setCiRepositories('tenant-a', ['acme/*', 'torvalds/linux']);
});
afterAll(async () => {
  await ctx.close();
  await issuer.close();
});

/** GitHub Actions-like claims for `request`. */
function claimsOf(request: CiVerificationRequest & { runId: string }) {
  return {
    repository: request.repository.fullName,
    sha: request.headSha,
    event_name: request.provenance.eventName,
    run_id: request.runId,
    run_attempt: '1',
    workflow_ref: `${request.repository.fullName}/.github/workflows/ci.yml@refs/heads/main`,
    job_workflow_ref: `${request.repository.fullName}/.github/workflows/ci.yml@refs/heads/main`,
    ref: 'refs/heads/main',
    repository_id: '123',
    repository_owner_id: '456',
    runner_environment: 'github-hosted',
  };
}

async function send(request: CiVerificationRequest & { runId?: string }, token?: string) {
  const body = bodyOf(request);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': key, ...(token !== undefined ? { 'x-ci-oidc-token': token } : {}) },
    payload: body,
  });
}

/** The ci.identity check of the stored receipt (status, and its reason label if any). */
async function identityOutcome(receiptId: string) {
  const body = (
    await ctx.app.inject({ url: `/api/v1/receipt/${receiptId}`, headers: { 'x-api-key': key } })
  ).json();
  const receipt = body.receipt ?? body;
  const check = receipt.checks.find((o: { checkId: string }) => o.checkId === 'ci.identity');
  const reason = (receipt.reasons as string[]).find((r) => r.startsWith('identity_'));
  return { outcome: { status: check?.status, reason }, subject: receipt.subject };
}

describe('ci.identity', () => {
  it('without a token: the made-up torvalds/linux run is a compliance gap, not provenance verified', async () => {
    const res = await send(runRequest('torvalds/linux'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ receiptStatus: 'compliance_gap', conclusion: 'neutral' });
    const { outcome } = await identityOutcome(res.json().receiptId);
    expect(outcome).toMatchObject({ status: 'WARN', reason: 'identity_unverified' });
  });

  it('with a valid token of the run: clean, and the receipt records the verified identity', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const request = runRequest();
      const res = await send(request, await issuer.sign(claimsOf(request), { alg }));
      expect(res.json()).toMatchObject({ receiptStatus: 'clean', conclusion: 'success' });
      const { outcome, subject } = await identityOutcome(res.json().receiptId);
      expect(outcome).toEqual({ status: 'PASS', reason: undefined });
      expect(subject.identity).toMatchObject({
        source: 'oidc',
        issuer: issuer.url,
        repository: request.repository.fullName,
        workflow_ref: 'acme/widgets/.github/workflows/ci.yml@refs/heads/main',
        repository_id: '123',
        runner_environment: 'github-hosted',
        run_id: request.runId,
      });
    }
  });

  it('a token of another repository, commit, event or run is a mismatch (failure)', async () => {
    const request = runRequest('torvalds/linux');
    const cases = [
      { repository: 'acme/widgets' },
      { sha: 'f'.repeat(40) },
      { event_name: 'pull_request' },
      { run_id: '1' },
    ];
    for (const change of cases) {
      const token = await issuer.sign({ ...claimsOf(request), ...change });
      const res = await send(
        {
          ...runRequest('torvalds/linux'),
          ...{ runId: request.runId, externalId: request.externalId },
        },
        token,
      );
      expect(res.json(), JSON.stringify(change)).toMatchObject({ receiptStatus: 'failure' });
      const { outcome, subject } = await identityOutcome(res.json().receiptId);
      expect(outcome).toMatchObject({ status: 'FAIL', reason: 'identity_mismatch' });
      // what the token claimed is kept, as refused: never as a proven (oidc) identity
      expect(subject.identity).toEqual({
        source: 'refused',
        reason: 'identity_mismatch',
        claimed: expect.objectContaining({ source: 'oidc', issuer: issuer.url }) as unknown,
      });
      request.externalId = `torvalds/linux/${randomInt(1e9)}/1`;
      request.runId = request.externalId.split('/')[2] as string;
    }
  });

  it.each([
    ['expired', { expiresIn: -600 }],
    ['not yet valid', { notBefore: Math.floor(Date.now() / 1000) + 600 }],
    ['for another audience', { audience: 'https://elsewhere.test' }],
    ['signed with a key the issuer does not publish', { unpublished: true }],
    ['from an untrusted issuer', { issuer: 'https://token.evil.test' }],
  ])('refuses a token %s (identity_invalid)', async (_label, options) => {
    const request = runRequest();
    const res = await send(request, await issuer.sign(claimsOf(request), options));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ receiptStatus: 'failure' });
    const { outcome, subject } = await identityOutcome(res.json().receiptId);
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'identity_invalid' });
    // a token that did not verify claims nothing worth keeping: only that it was refused
    expect(subject.identity).toEqual({
      source: 'refused',
      reason: 'identity_invalid',
      claimed: { source: 'oidc' },
    });
  });

  it('refuses alg none, HS256 keyed with the public key, malformed and huge tokens', async () => {
    const request = runRequest();
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const claims = {
      ...claimsOf(request),
      iss: issuer.url,
      aud: AUDIENCE,
      exp: Date.now() / 1000 + 300,
      iat: Date.now() / 1000,
    };
    const jwks = await (await fetch(`${issuer.url}/jwks`)).json();
    const { createHmac } = await import('node:crypto');
    const hsInput = `${b64({ alg: 'HS256', kid: 'rsa-1' })}.${b64(claims)}`;
    const hsSig = createHmac('sha256', JSON.stringify(jwks.keys[0]))
      .update(hsInput)
      .digest('base64url');
    const tokens = [`${b64({ alg: 'none' })}.${b64(claims)}.`, `${hsInput}.${hsSig}`, 'not-a-jwt'];
    for (const token of tokens) {
      const res = await send({ ...request, externalId: `acme/widgets/${randomInt(1e9)}/1` }, token);
      expect(res.statusCode, token.slice(0, 40)).toBe(200);
      const { outcome } = await identityOutcome(res.json().receiptId);
      expect(outcome).toMatchObject({ status: 'FAIL', reason: 'identity_invalid' });
    }
  });

  it('refuses a token header over 16 KiB unread, as a malformed credential header (401)', async () => {
    const res = await send(runRequest(), `eyJ${'A'.repeat(17_000)}`);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toMatchObject({
      error: 'unauthorized',
      details: { headers: ['x-ci-oidc-token'] },
    });
  });

  it('x-ci-subject-digest must be sha256:<hex> (400), and is part of the idempotency key', async () => {
    const request = runRequest();
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verifications/ci',
      headers: { 'x-api-key': key, 'x-ci-subject-digest': 'sha256:XYZ' },
      payload: bodyOf(request),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: 'validation_failed',
      details: { header: 'x-ci-subject-digest' },
    });
    const send2 = (digest: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/verifications/ci',
        headers: { 'x-api-key': key, 'x-ci-subject-digest': digest },
        payload: bodyOf(request),
      });
    const first = await send2(`sha256:${'1'.repeat(64)}`);
    expect(first.statusCode).toBe(200);
    expect((await send2(`sha256:${'1'.repeat(64)}`)).json().receiptId).toBe(first.json().receiptId);
    expect((await send2(`sha256:${'2'.repeat(64)}`)).statusCode).toBe(400);
  });

  it('follows a key rotation: a token signed with the new key verifies', async () => {
    const kid = await issuer.rotate();
    const request = runRequest();
    const res = await send(request, await issuer.sign(claimsOf(request), { kid }));
    expect(res.json()).toMatchObject({ receiptStatus: 'clean' });
  });

  it('an unreachable issuer is 503 when a token is sent, and no concern without one', async () => {
    issuer.setDown(true);
    try {
      const fresh = await createTestContext({
        CI_OIDC_ISSUERS: issuer.url,
        CI_OIDC_AUDIENCE: AUDIENCE,
      });
      try {
        const freshKey = await fresh.apiKey(['verify']);
        const request = runRequest();
        const body = bodyOf(request);
        const withToken = await fresh.app.inject({
          method: 'POST',
          url: '/api/v1/verifications/ci',
          headers: {
            'x-api-key': freshKey,
            'x-ci-oidc-token': await issuer.sign(claimsOf(request)),
          },
          payload: body,
        });
        expect(withToken.statusCode).toBe(503);
        expect(withToken.json().error).toBe('dependency_unavailable');
        const rows = await fresh.db.knex('receipts').count({ n: '*' });
        expect(Number(rows[0]?.n)).toBe(0);
        const without = await fresh.app.inject({
          method: 'POST',
          url: '/api/v1/verifications/ci',
          headers: { 'x-api-key': freshKey },
          payload: body,
        });
        expect(without.json()).toMatchObject({ receiptStatus: 'compliance_gap' });
      } finally {
        await fresh.close();
      }
    } finally {
      issuer.setDown(false);
    }
  });

  it('an issuer answering with an oversized discovery document or JWKS is 503, read no further', async () => {
    for (const document of ['discovery', 'jwks'] as const) {
      issuer.setPadding(document, 2 * 1024 * 1024);
      const fresh = await createTestContext({
        CI_OIDC_ISSUERS: issuer.url,
        CI_OIDC_AUDIENCE: AUDIENCE,
      });
      try {
        const request = runRequest();
        const res = await fresh.app.inject({
          method: 'POST',
          url: '/api/v1/verifications/ci',
          headers: {
            'x-api-key': await fresh.apiKey(['verify']),
            'x-ci-oidc-token': await issuer.sign(claimsOf(request)),
          },
          payload: bodyOf(request),
        });
        expect(res.statusCode, document).toBe(503);
        expect(res.json(), document).toMatchObject({ error: 'dependency_unavailable' });
      } finally {
        issuer.setPadding(document, 0);
        await fresh.close();
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { CiVerificationRequest } from '../../../src/contract/ci.js';
import { checkRepository, repositoryAllowed } from '../../../src/receipts/checks/ci.js';
import { checkIdentity } from '../../../src/receipts/checks/ci-identity.js';
import type {
  CiIdentityClaims,
  CiIdentityEvidence,
} from '../../../src/receipts/ci-identity/identity.js';

/** A token proves one run: its run, repository and sha against the request, and a tenant's claim. */

const SHA = 'a'.repeat(40);

function request(change: Partial<CiVerificationRequest> = {}): CiVerificationRequest {
  return {
    externalId: 'octo-org/widgets/100/1',
    headSha: SHA,
    subject: { kind: 'workflow_run', summary: 'build' },
    repository: { fullName: 'octo-org/widgets' },
    provenance: { eventName: 'push' },
    ...change,
  };
}

function token(change: Partial<CiIdentityClaims> = {}): CiIdentityEvidence {
  return { kind: 'oidc-valid', claims: claimsOf(change) };
}

function claimsOf(change: Partial<CiIdentityClaims> = {}): CiIdentityClaims {
  return {
    issuer: 'https://token.actions.githubusercontent.com',
    repository: 'octo-org/widgets',
    sha: SHA,
    event_name: 'push',
    run_id: '100',
    run_attempt: '1',
    jti: 'j-1',
    exp: 2_000_000_000,
    ...change,
  };
}

describe('ci.identity binds the token to the run the request names', () => {
  it('the default externalId form names the run', () => {
    expect(checkIdentity(request(), token()).status).toBe('PASS');
    expect(checkIdentity(request(), token({ run_id: '101' }))).toMatchObject({
      status: 'FAIL',
      reason: 'identity_mismatch',
    });
  });

  it('any other externalId: the run must be named in x-ci-run, else the token is not bound', () => {
    const custom = request({ externalId: 'release-build-42' });
    expect(checkIdentity(custom, token())).toMatchObject({
      status: 'FAIL',
      reason: 'identity_mismatch',
    });
    expect(checkIdentity(custom, token(), { runId: '100', attempt: '1' }).status).toBe('PASS');
    expect(checkIdentity(custom, token(), { runId: '999', attempt: '1' }).status).toBe('FAIL');
  });

  it('a run_attempt mismatch fails, by externalId and by x-ci-run', () => {
    expect(checkIdentity(request(), token({ run_attempt: '2' })).reason).toBe('identity_mismatch');
    const custom = request({ externalId: 'release-build-42' });
    expect(checkIdentity(custom, token(), { runId: '100', attempt: '2' }).status).toBe('FAIL');
  });

  it('x-ci-run and the externalId must both be the token run when both name one', () => {
    expect(checkIdentity(request(), token(), { runId: '100', attempt: '2' }).status).toBe('FAIL');
  });

  it('a token without run claims is bound to no run', () => {
    const claims = claimsOf();
    delete claims.run_id;
    expect(checkIdentity(request(), { kind: 'oidc-valid', claims }).status).toBe('FAIL');
  });

  it('a replayed token fails identity_replayed', () => {
    const replay = { kind: 'oidc-replayed' as const, claims: claimsOf() };
    expect(checkIdentity(request(), replay)).toMatchObject({
      status: 'FAIL',
      reason: 'identity_replayed',
    });
  });
});

describe("ci.repository: the tenant's policy claims the repository a token proves", () => {
  it('no policy: WARN repository_unclaimed for a token, PASS without one or via the App', () => {
    expect(checkRepository(request(), { identity: token() })).toMatchObject({
      status: 'WARN',
      reason: 'repository_unclaimed',
    });
    expect(checkRepository(request(), {}).status).toBe('PASS');
    const app = { kind: 'github-app' as const, installationId: 1 };
    expect(checkRepository(request(), { identity: app }).status).toBe('PASS');
  });

  it('a policy that does not admit it: FAIL repository_not_allowed', () => {
    const ctx = { identity: token(), allowedRepositories: ['acme/*'] };
    expect(checkRepository(request(), ctx)).toMatchObject({
      status: 'FAIL',
      reason: 'repository_not_allowed',
    });
    const admits = { identity: token(), allowedRepositories: ['octo-org/widgets'] };
    expect(checkRepository(request(), admits).status).toBe('PASS');
  });

  it.each([
    ['acme/*', 'acmeevil/x', false],
    ['acme/*', 'acme/x', true],
    ['acme/*', 'ACME/x', true],
    ['other/one', 'other/onex', false],
    ['other/one', 'other/on', false],
    ['other/one', 'other/one', true],
    ['other/one', 'otherx/one', false],
  ])('pattern %s against %s: %s', (pattern, fullName, admitted) => {
    expect(repositoryAllowed(fullName, [pattern])).toBe(admitted);
  });
});

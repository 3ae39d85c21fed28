import { describe, expect, it } from 'vitest';
import type { CiVerificationRequest } from '../../../src/contract/ci.js';
import {
  checkCommit,
  checkRepository,
  checkTrigger,
  DEFAULT_TRUSTED_EVENTS,
  runCiChecks,
} from '../../../src/receipts/checks/ci.js';
import { decide } from '../../../src/receipts/checks/decision.js';

function ciRequest(change: Partial<CiVerificationRequest> = {}): CiVerificationRequest {
  return {
    externalId: 'run-1',
    headSha: 'a'.repeat(40),
    subject: { kind: 'workflow_run', summary: 'build' },
    repository: { fullName: 'octo-org/hello-world' },
    provenance: { eventName: 'push' },
    ...change,
  };
}

describe('ci.commit', () => {
  it.each(['0123456789abcdef0123456789abcdef01234567', 'f'.repeat(64)])('passes %s', (headSha) => {
    expect(checkCommit(ciRequest({ headSha }))).toMatchObject({
      checkId: 'ci.commit',
      status: 'PASS',
    });
  });

  it.each(['A'.repeat(40), 'a'.repeat(39), 'a'.repeat(41), 'g'.repeat(40), 'main', '0'.repeat(40)])(
    'fails malformed_commit_id for %s',
    (headSha) => {
      expect(checkCommit(ciRequest({ headSha }))).toMatchObject({
        status: 'FAIL',
        reason: 'malformed_commit_id',
      });
    },
  );
});

describe('ci.repository', () => {
  it.each(['octo-org/hello-world', 'a/b', 'user_acme/repo.js', 'Org1/.github', 'o/_-.x'])(
    'passes %s',
    (fullName) => {
      expect(checkRepository(ciRequest({ repository: { fullName } })).status).toBe('PASS');
    },
  );

  it.each([
    'no-slash',
    'a/b/c',
    '/repo',
    'owner/',
    '-owner/repo',
    'owner-/repo',
    'ow ner/repo',
    `${'o'.repeat(40)}/repo`,
    `owner/${'r'.repeat(101)}`,
    'owner/..',
    'owner/.',
  ])('fails malformed_repository for %j', (fullName) => {
    expect(checkRepository(ciRequest({ repository: { fullName } }))).toMatchObject({
      status: 'FAIL',
      reason: 'malformed_repository',
    });
  });
});

describe('ci.trigger', () => {
  const ctx = { trustedEvents: DEFAULT_TRUSTED_EVENTS };

  it.each([...DEFAULT_TRUSTED_EVENTS])('trusts %s by default', (eventName) => {
    expect(checkTrigger(ciRequest({ provenance: { eventName } }), ctx).status).toBe('PASS');
  });

  it.each(['pull_request', 'pull_request_target', 'workflow_run', 'repository_dispatch', 'Push'])(
    'fails untrusted_trigger_event for %s by default',
    (eventName) => {
      expect(checkTrigger(ciRequest({ provenance: { eventName } }), ctx)).toMatchObject({
        status: 'FAIL',
        reason: 'untrusted_trigger_event',
      });
    },
  );

  it("follows the tenant's own list", () => {
    const tenant = { trustedEvents: ['pull_request'] };
    expect(
      checkTrigger(ciRequest({ provenance: { eventName: 'pull_request' } }), tenant).status,
    ).toBe('PASS');
    expect(checkTrigger(ciRequest(), tenant).status).toBe('FAIL');
  });
});

describe('runCiChecks', () => {
  it('runs ci.commit, ci.repository, ci.trigger, ci.identity in order with the default trusted events', () => {
    const outcomes = runCiChecks(ciRequest());
    expect(outcomes.map((o) => o.checkId)).toEqual([
      'ci.commit',
      'ci.repository',
      'ci.trigger',
      'ci.identity',
    ]);
    // no identity evidence: a WARN, so FLAG; proven by the GitHub App: ALLOW
    expect(decide(outcomes)).toBe('FLAG');
    const app = runCiChecks(ciRequest(), {
      trustedEvents: DEFAULT_TRUSTED_EVENTS,
      identity: { kind: 'github-app', installationId: 1 },
    });
    expect(decide(app)).toBe('ALLOW');
    const untrusted = runCiChecks(ciRequest({ provenance: { eventName: 'pull_request_target' } }));
    expect(decide(untrusted)).toBe('BLOCK');
  });
});

import { describe, expect, it } from 'vitest';
import { CI_PROFILES, resolveCiProfile } from '../../../src/receipts/ci-profiles.js';
import { checkBranch, checkRunner, refOfWorkflowRef } from '../../../src/receipts/checks/ci-run.js';
import { runCiChecks, DEFAULT_TRUSTED_EVENTS } from '../../../src/receipts/checks/ci.js';
import { ciRequest } from '../../http/hostile/requests.js';

/** ci.runner and ci.branch (ci-provenance-v2): proven facts PASS, anything else WARNs. */

const oidc = { source: 'oidc' };

describe('ci.runner', () => {
  it('passes a GitHub-hosted runner, warns on self-hosted, unknown or absent', () => {
    expect(checkRunner({ ...oidc, runnerEnvironment: 'github-hosted' }).status).toBe('PASS');
    expect(checkRunner({ ...oidc, runnerEnvironment: 'self-hosted' })).toMatchObject({
      status: 'WARN',
      reason: 'self_hosted_runner',
    });
    for (const runnerEnvironment of ['GitHub-Hosted', 'cloud', undefined]) {
      expect(checkRunner({ ...oidc, runnerEnvironment })).toMatchObject({
        status: 'WARN',
        reason: 'runner_unverified',
      });
    }
    expect(checkRunner({ ...oidc, unknown: { runner: 'because' } }).details).toContain('because');
  });
});

describe('ci.branch', () => {
  it('passes only refs/heads/<default branch>', () => {
    const facts = { ...oidc, defaultBranch: 'main' };
    expect(checkBranch({ ...facts, workflowRef: 'refs/heads/main' }).status).toBe('PASS');
    for (const workflowRef of ['refs/heads/dev', 'refs/tags/main', 'refs/pull/1/merge', 'main']) {
      expect(checkBranch({ ...facts, workflowRef })).toMatchObject({
        status: 'WARN',
        reason: 'not_default_branch',
      });
    }
  });

  it('warns default_branch_unverified when either side is unknown', () => {
    expect(checkBranch({ ...oidc, workflowRef: 'refs/heads/main' })).toMatchObject({
      reason: 'default_branch_unverified',
    });
    expect(checkBranch({ ...oidc, defaultBranch: 'main' })).toMatchObject({
      reason: 'default_branch_unverified',
    });
  });

  it('reads the ref after the last @ of a workflow_ref claim', () => {
    expect(refOfWorkflowRef('o/r/.github/workflows/ci.yml@refs/heads/main')).toBe(
      'refs/heads/main',
    );
    expect(refOfWorkflowRef('o/r/.github/workflows/a@b.yml@refs/heads/x')).toBe('refs/heads/x');
    expect(refOfWorkflowRef('o/r/.github/workflows/ci.yml@')).toBeUndefined();
    expect(refOfWorkflowRef('no-ref')).toBeUndefined();
    expect(refOfWorkflowRef(undefined)).toBeUndefined();
  });
});

describe('CI profiles', () => {
  it('pins every published profile', () => {
    expect(CI_PROFILES.map((p) => [p.id, p.hardened])).toEqual([
      ['ci-provenance-v1', false],
      ['ci-provenance-v2', true],
    ]);
    expect(Object.isFrozen(CI_PROFILES[0])).toBe(true);
    expect(resolveCiProfile('CI-PROVENANCE-V2')).toBeUndefined();
  });

  it('runs ci.runner and ci.branch after the v1 checks only when given run facts', () => {
    const ctx = { trustedEvents: DEFAULT_TRUSTED_EVENTS };
    const ids = (facts?: { source: string }) =>
      runCiChecks(ciRequest(), { ...ctx, runFacts: facts }).map((o) => o.checkId);
    expect(ids()).toEqual(['ci.commit', 'ci.repository', 'ci.trigger', 'ci.identity']);
    expect(ids(oidc)).toEqual([
      'ci.commit',
      'ci.repository',
      'ci.trigger',
      'ci.identity',
      'ci.runner',
      'ci.branch',
    ]);
  });
});

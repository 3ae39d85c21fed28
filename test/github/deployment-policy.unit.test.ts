import { describe, expect, it } from 'vitest';
import {
  DeploymentsPolicy,
  evaluateDeployment,
  EnvironmentPolicy,
  policyFor,
  workflowPathOf,
  type GateReceipt,
} from '../../src/receipts/deployment-gates/policy.js';

const NOW = new Date('2026-05-01T12:00:00Z');
const times = { now: NOW, requestedAt: new Date(NOW.getTime() - 60_000) };

function receipt(overrides: Partial<GateReceipt> = {}): GateReceipt {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    receiptHash: `sha256:${'a'.repeat(64)}`,
    createdAt: new Date(NOW.getTime() - 3_600_000),
    profile: 'ci-provenance-v2',
    decision: 'ALLOW',
    revoked: false,
    intact: true,
    identitySource: 'oidc',
    workflowRef: 'acme/app/.github/workflows/release.yml@refs/heads/main',
    runnerEnvironment: 'github-hosted',
    ...overrides,
  };
}

const policy = (input: Record<string, unknown> = {}) => EnvironmentPolicy.parse(input);

describe('deployments policy', () => {
  it('an exact environment name wins over *, and no entry means not gated', () => {
    const policies = DeploymentsPolicy.parse({ production: { maxAge: '1d' }, '*': {} });
    expect(policyFor(policies, 'production')?.maxAge).toBe('1d');
    expect(policyFor(policies, 'staging')?.maxAge).toBeUndefined();
    expect(policyFor(DeploymentsPolicy.parse({ production: {} }), 'staging')).toBeUndefined();
    expect(policyFor(undefined, 'production')).toBeUndefined();
  });

  it('matches environment names as GitHub does, without case; refuses one listed twice', () => {
    const policies = DeploymentsPolicy.parse({ production: { maxAge: '1d' }, '*': {} });
    for (const name of ['Production', 'PRODUCTION', 'production']) {
      expect(policyFor(policies, name)?.maxAge, name).toBe('1d');
    }
    const upper = DeploymentsPolicy.parse({ Staging: { maxAge: '2h' }, '*': { maxAge: '9d' } });
    expect(policyFor(upper, 'staging')?.maxAge).toBe('2h');
    expect(policyFor(upper, 'stagingx')?.maxAge).toBe('9d');
    const twice = DeploymentsPolicy.safeParse({ production: {}, Production: {} });
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]?.message).toContain('production and Production');
  });

  it('refuses unknown keys and malformed durations and workflow paths', () => {
    expect(EnvironmentPolicy.safeParse({ maxage: '1d' }).success).toBe(false);
    expect(EnvironmentPolicy.safeParse({ maxAge: '1 week' }).success).toBe(false);
    expect(EnvironmentPolicy.safeParse({ workflow: 'release.yml' }).success).toBe(false);
    expect(EnvironmentPolicy.safeParse({ identity: 'self-reported' }).success).toBe(false);
  });

  it('reads the workflow file of a workflow_ref', () => {
    expect(workflowPathOf('acme/app/.github/workflows/release.yml@refs/tags/v1')).toBe(
      '.github/workflows/release.yml',
    );
    expect(workflowPathOf(undefined)).toBeUndefined();
  });

  it('approves with a receipt that meets every condition', () => {
    const decision = evaluateDeployment(
      policy({
        profile: 'ci-provenance-v2',
        identity: 'oidc',
        workflow: '.github/workflows/release.yml',
        denySelfHostedRunners: true,
        maxAge: '2h',
      }),
      [receipt()],
      times,
    );
    expect(decision).toMatchObject({ state: 'approved', receipt: { decision: 'ALLOW' } });
  });

  it('names each unmet condition of the newest receipt', () => {
    const decision = evaluateDeployment(
      policy({ identity: 'oidc', denySelfHostedRunners: true, maxAge: '30m' }),
      [
        receipt({
          decision: 'FLAG',
          identitySource: 'github-app',
          runnerEnvironment: 'self-hosted',
        }),
      ],
      times,
    );
    expect(decision.state).toBe('rejected');
    expect(decision.reason).toContain('decision FLAG (required: clean)');
    expect(decision.reason).toContain('identity not verified by an OIDC token of the run');
    expect(decision.reason).toContain('the run used a self-hosted runner');
    expect(decision.reason).toContain('older than maxAge 30m');
  });

  it('allows compliance_gap only when the policy says so; BLOCK never', () => {
    const flag = [receipt({ decision: 'FLAG' })];
    expect(evaluateDeployment(policy({ allowComplianceGap: true }), flag, times).state).toBe(
      'approved',
    );
    const block = [receipt({ decision: 'BLOCK' })];
    expect(evaluateDeployment(policy({ allowComplianceGap: true }), block, times).state).toBe(
      'rejected',
    );
  });

  it('an unproven runner does not pass denySelfHostedRunners; a self-reported identity not proven', () => {
    const decision = evaluateDeployment(
      policy({ denySelfHostedRunners: true, identity: 'proven' }),
      [receipt({ runnerEnvironment: undefined, identitySource: undefined })],
      times,
    );
    expect(decision.reason).toContain('the runner is not proven to be GitHub-hosted');
    expect(decision.reason).toContain('identity not proven (self-reported)');
  });

  it('a revoked receipt rejects, unless the policy only stops counting it', () => {
    const receipts = [
      receipt({ revoked: true, id: 'revoked-one' }),
      receipt({ createdAt: new Date(NOW.getTime() - 7_200_000) }),
    ];
    expect(evaluateDeployment(policy(), receipts, times)).toMatchObject({
      state: 'rejected',
      reason: 'receipt revoked-one is revoked',
    });
    expect(evaluateDeployment(policy({ revokedRejects: false }), receipts, times).state).toBe(
      'approved',
    );
  });

  it('a revoked receipt anywhere in the set rejects, not only the newest', () => {
    const hour = 3_600_000;
    const at = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * hour);
    const receipts = [
      receipt({ id: 'newest', createdAt: at(1) }),
      receipt({ id: 'middle', createdAt: at(2) }),
      receipt({ id: 'oldest-revoked', createdAt: at(3), revoked: true }),
    ];
    // handed in any order: the set is ordered newest first before it is judged
    for (const order of [receipts, [...receipts].reverse()]) {
      expect(evaluateDeployment(policy(), order, times)).toMatchObject({
        state: 'rejected',
        reason: 'receipt oldest-revoked is revoked',
      });
    }
  });

  it('a receipt that no longer verifies never approves', () => {
    const decision = evaluateDeployment(policy(), [receipt({ intact: false })], times);
    expect(decision).toMatchObject({ state: 'rejected' });
    expect(decision.reason).toContain('no longer verifies');
  });

  it('waits while no receipt of the workflow exists, then rejects after the wait limit', () => {
    const other = [receipt({ workflowRef: 'acme/app/.github/workflows/test.yml@refs/heads/main' })];
    const p = policy({ workflow: '.github/workflows/release.yml', wait: '10m' });
    expect(evaluateDeployment(p, other, times)).toMatchObject({ state: 'pending' });
    const later = { now: new Date(NOW.getTime() + 600_000), requestedAt: times.requestedAt };
    expect(evaluateDeployment(p, other, later)).toMatchObject({
      state: 'rejected',
      reason: 'no matching CI receipt from .github/workflows/release.yml was issued within 10m',
    });
  });

  it('a receipt of another profile does not count', () => {
    const decision = evaluateDeployment(
      policy({ profile: 'ci-provenance-v2' }),
      [receipt({ profile: 'ci-provenance-v1' })],
      times,
    );
    expect(decision.state).toBe('pending');
  });
});

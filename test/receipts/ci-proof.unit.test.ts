import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contract/common.js';
import { ciProofOf, countsForGate, type GateScope } from '../../src/receipts/ci-proof.js';
import { checkIdentity } from '../../src/receipts/checks/ci-identity.js';
import {
  identitySubject,
  type CiIdentityClaims,
  type CiIdentityEvidence,
} from '../../src/receipts/ci-identity/identity.js';
import type { ReceiptRecord } from '../../src/receipts/ports.js';
import type { StoredReceipt } from '../../src/receipts/types.js';

/**
 * Which CI receipts prove their run, and for which gate they count: only a passing ci.identity
 * of the gate's repository (an OIDC token of it, or this installation's webhook) does; a
 * refused token is recorded as refused, never as `source: oidc`.
 */

const SHA = 'c'.repeat(40);
const VICTIM = 'victim-org/app';
const GATE: GateScope = {
  repository: VICTIM,
  sha: SHA,
  tenant: 'github-installation-7',
  installationId: 7,
};

/** A CI receipt written by hand: its subject and its ci.identity check. */
function record(
  identity: Record<string, unknown> | undefined,
  check: CheckResult | undefined,
  change: { tenant?: string; repository?: string; headSha?: string } = {},
): ReceiptRecord {
  const receipt = {
    receiptVersion: '1.0',
    receiptId: '00000000-0000-4000-8000-000000000001',
    createdAt: '2026-05-01T12:00:00.000Z',
    policyProfile: 'ci-provenance-v1',
    inputsCommitment: `sha256:${'1'.repeat(64)}`,
    subject: {
      kind: 'ci-workflow-run',
      externalId: `${VICTIM}/1/1`,
      headSha: change.headSha ?? SHA,
      repository: change.repository ?? VICTIM,
      eventName: 'push',
      subjectKind: 'workflow_run',
      summary: 'release',
      ...(identity ? { identity } : {}),
    },
    checks: check ? [check] : [],
    decision: check?.status === 'PASS' ? 'ALLOW' : 'BLOCK',
    reasons: [],
    receiptHash: `sha256:${'2'.repeat(64)}`,
  } as StoredReceipt;
  return {
    id: receipt.receiptId,
    tenant: change.tenant ?? 'tenant-b',
    receipt,
    createdAt: new Date(receipt.createdAt),
    hasProofArtifact: true,
    externalId: null,
    revokedAt: null,
    revokedBy: null,
    revocationAudit: null,
    revocationEntry: null,
    anchor: { leafIndex: null, anchoredAt: null, leafHash: null },
  };
}

const PASS: CheckResult = { checkId: 'ci.identity', status: 'PASS', details: 'proven' };
const MISMATCH: CheckResult = {
  checkId: 'ci.identity',
  status: 'FAIL',
  details: "the token's claims differ",
};
const oidc = { source: 'oidc', issuer: 'https://token.actions.githubusercontent.com' };
const app = (installationId: number) => ({ source: 'github-app', installationId });

describe('ciProofOf and countsForGate', () => {
  it('an OIDC-proven receipt of the repository counts, whichever tenant holds it', () => {
    const proven = record({ ...oidc, repository: 'Victim-Org/App' }, PASS);
    expect(ciProofOf(proven.receipt)).toEqual({ source: 'oidc', repository: VICTIM, headSha: SHA });
    expect(countsForGate(proven, GATE)).toBe(true);
    expect(countsForGate(proven, { ...GATE, repository: 'Victim-Org/APP' })).toBe(true);
  });

  it('source oidc without a passing ci.identity proves nothing (a mismatched token)', () => {
    const claimed = record({ ...oidc }, MISMATCH);
    expect(ciProofOf(claimed.receipt)).toBeUndefined();
    expect(countsForGate(claimed, GATE)).toBe(false);
    expect(countsForGate(record({ ...oidc }, undefined), GATE)).toBe(false);
  });

  it('a recorded token repository other than the subject proves nothing', () => {
    const other = record({ ...oidc, repository: 'attacker-org/tool' }, PASS);
    expect(ciProofOf(other.receipt)).toBeUndefined();
  });

  it('another repository or commit does not count', () => {
    expect(countsForGate(record(oidc, PASS, { repository: 'victim-org/app2' }), GATE)).toBe(false);
    expect(countsForGate(record(oidc, PASS, { headSha: 'd'.repeat(40) }), GATE)).toBe(false);
  });

  it('an App receipt counts only for its own installation, in its tenant', () => {
    const own = record(app(7), PASS, { tenant: GATE.tenant });
    expect(countsForGate(own, GATE)).toBe(true);
    expect(countsForGate(record(app(8), PASS, { tenant: GATE.tenant }), GATE)).toBe(false);
    expect(countsForGate(record(app(7), PASS, { tenant: 'tenant-b' }), GATE)).toBe(false);
    expect(ciProofOf(record({ source: 'github-app' }, PASS).receipt)).toBeUndefined();
  });

  it('self-reported and refused identities prove nothing, even with a passing check', () => {
    expect(countsForGate(record(undefined, PASS, { tenant: GATE.tenant }), GATE)).toBe(false);
    const refused = { source: 'refused', claimed: { source: 'oidc', repository: VICTIM } };
    expect(countsForGate(record(refused, PASS), GATE)).toBe(false);
  });
});

describe('identitySubject records a refused token as refused', () => {
  const claims: CiIdentityClaims = {
    issuer: 'https://token.actions.githubusercontent.com',
    repository: 'attacker-org/tool',
    sha: SHA,
    event_name: 'push',
    run_id: '5',
    run_attempt: '1',
    runner_environment: 'github-hosted',
    workflow_ref: 'attacker-org/tool/.github/workflows/x.yml@refs/heads/main',
    jti: 'j-1',
    exp: 2_000_000_000,
  };
  const request = {
    externalId: `${VICTIM}/5/1`,
    headSha: SHA,
    subject: { kind: 'workflow_run', summary: 'release' },
    repository: { fullName: VICTIM },
    provenance: { eventName: 'push' },
  };

  it("another repository's valid token: what it claimed, and why it was refused", () => {
    const evidence: CiIdentityEvidence = { kind: 'oidc-valid', claims };
    const outcome = checkIdentity(request, evidence);
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'identity_mismatch' });
    const recorded = identitySubject(evidence, outcome);
    expect(recorded).toEqual({
      source: 'refused',
      reason: 'identity_mismatch',
      claimed: expect.objectContaining({
        source: 'oidc',
        repository: 'attacker-org/tool',
        sha: SHA,
      }) as unknown,
    });
    // nothing a reader takes as proven sits at the top level
    expect(recorded).not.toHaveProperty('runner_environment');
    expect(recorded).not.toHaveProperty('workflow_ref');
  });

  it('a replayed or invalid token is refused too; a matching token is the proven identity', () => {
    const replayed: CiIdentityEvidence = { kind: 'oidc-replayed', claims };
    expect(identitySubject(replayed, checkIdentity(request, replayed))).toMatchObject({
      source: 'refused',
      reason: 'identity_replayed',
    });
    const invalid: CiIdentityEvidence = { kind: 'oidc-invalid', reason: 'expired' };
    expect(identitySubject(invalid, checkIdentity(request, invalid))).toEqual({
      source: 'refused',
      reason: 'identity_invalid',
      claimed: { source: 'oidc' },
    });
    const own: CiIdentityEvidence = {
      kind: 'oidc-valid',
      claims: { ...claims, repository: VICTIM },
    };
    expect(identitySubject(own, checkIdentity(request, own))).toMatchObject({
      source: 'oidc',
      repository: VICTIM,
      runner_environment: 'github-hosted',
    });
    expect(identitySubject({ kind: 'none' }, undefined)).toBeUndefined();
  });
});

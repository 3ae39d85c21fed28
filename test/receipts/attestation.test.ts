import { describe, expect, it } from 'vitest';
import { vsaStatement } from '../../src/receipts/attestation.js';
import type { ReceiptRecord } from '../../src/receipts/ports.js';

/** The VSA's verificationResult: PASSED only for an ALLOW that is not revoked. */
function recordOf(decision: 'ALLOW' | 'FLAG' | 'BLOCK'): ReceiptRecord {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    tenant: 't',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    hasProofArtifact: true,
    externalId: null,
    revokedAt: null,
    revokedBy: null,
    revocationAudit: null,
    revocationEntry: null,
    anchor: { leafIndex: null, anchoredAt: null, leafHash: null },
    receipt: {
      receiptId: '00000000-0000-4000-8000-000000000001',
      createdAt: '2026-01-01T00:00:00.000Z',
      decision,
      policyProfile: 'ci-provenance-v1',
      receiptHash: `sha256:${'a'.repeat(64)}`,
      subject: { kind: 'ci-workflow-run', headSha: 'b'.repeat(40), repository: 'o/r' },
    },
  } as unknown as ReceiptRecord;
}

const result = (decision: 'ALLOW' | 'FLAG' | 'BLOCK') =>
  vsaStatement(recordOf(decision), 'https://r.test', 'https://r.test/receipts/1')
    .predicate as Record<string, unknown>;

describe('vsaStatement', () => {
  it('a FLAG receipt is FAILED, as a BLOCK is; an ALLOW is PASSED', () => {
    expect(result('FLAG')).toMatchObject({
      verificationResult: 'FAILED',
      verifiedLevels: ['FAILED'],
    });
    expect(result('BLOCK')).toMatchObject({ verificationResult: 'FAILED' });
    expect(result('ALLOW')).toMatchObject({
      verificationResult: 'PASSED',
      verifiedLevels: ['VERIFICATION_RECEIPT_CI_PROVENANCE_V1'],
    });
  });
});

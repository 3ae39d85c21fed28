import type { CheckResult } from '../../src/contract/common.js';
import type { ReceiptView, StoredReceipt } from '../../src/receipts/types.js';

const hex = (seed: string): string => seed.repeat(64).slice(0, 64);

export const HASH = `sha256:${hex('3f9a1c07be')}`;
export const COMMITMENT = `sha256:${hex('a41b9e27d0')}`;
export const DOC_HASH = `sha256:${hex('5c2e8f1a90')}`;
export const DIGEST = `sha256:${hex('77d0e3b5c1')}`;
export const KID = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
export const SIGNATURE =
  'q5Y9Xk1mJzR0bW9uc3RyYXRpb24tc2lnbmF0dXJlLW9mLTg2LWNoYXJhY3RlcnMtYmFzZTY0dXJsLUVkMjU1MTk';

const RECEIPT_ID = '6f1c2a9e-4b7d-4c35-9a0e-2d8b7f3e1a54';

function receipt(overrides: Partial<StoredReceipt>): StoredReceipt {
  return {
    receiptVersion: '1.0',
    receiptId: RECEIPT_ID,
    createdAt: '2025-03-14T15:09:26.535Z',
    policyProfile: 'ron-standard-v2',
    inputsCommitment: COMMITMENT,
    subject: {
      kind: 'ron-document',
      bundleId: 'BND-2025-000417',
      transactionType: 'refinance',
      docHash: DOC_HASH,
      notaryId: 'NTR-TX-88213',
      property: { parcelId: 'R-0042-117-0090', county: 'Travis', state: 'TX' },
    },
    checks: [
      { checkId: 'seal_signature', status: 'PASS', details: 'SIM-ECDSA-v1 seal verified' },
      {
        checkId: 'notary_commission',
        status: 'PASS',
        details: 'Commission valid until 2027-06-30',
      },
      { checkId: 'doc_hash_match', status: 'PASS' },
    ],
    decision: 'ALLOW',
    reasons: [],
    receiptHash: HASH,
    receiptSignature: { alg: 'EdDSA', kid: KID, signature: SIGNATURE },
    ...overrides,
  };
}

function view(stored: StoredReceipt, overrides: Partial<ReceiptView> = {}): ReceiptView {
  return {
    receipt: stored,
    canonicalReceipt: '{}',
    status: 'clean',
    revocation: { status: 'ACTIVE' },
    anchor: { status: 'PENDING' },
    serviceUrl: 'https://receipts.example.com',
    verifyUrl: `https://receipts.example.com/verify?hash=${encodeURIComponent(stored.receiptHash)}`,
    apiVerifyUrl: `https://receipts.example.com/api/v1/receipt/${stored.receiptId}/verify`,
    ...overrides,
  };
}

/** ALLOW / clean, anchored, with the extra anchor fields of the Merkle log. */
export function cleanView(): ReceiptView {
  return view(receipt({}), {
    anchor: {
      status: 'ANCHORED',
      anchoredAt: '2025-03-14T15:10:02.000Z',
      subjectDigest: DIGEST,
      subjectVersion: 'rfc9162-leaf-v1',
      logIndex: 41872,
      treeSize: 41900,
      rootHash: `sha256:${hex('0b8e4d2a6f')}`,
    },
  });
}

/** BLOCK / failure with FAIL and WARN checks, a CI subject and no signature. */
export function blockedView(): ReceiptView {
  const stored = receipt({
    receiptId: '0d3e7b12-98c4-4f6a-b1d2-7e5a9c0f4b33',
    policyProfile: 'ci-release-gate',
    subject: {
      kind: 'ci-workflow-run',
      externalId: 'run-9912345678',
      headSha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      repository: 'acme/payments-service',
      eventName: 'push',
      subjectKind: 'release-artifact',
      summary: 'Release build v2.14.0 of payments-service (container image and SBOM)',
    },
    checks: [
      { checkId: 'ci.commit', status: 'PASS' },
      {
        checkId: 'ci.repository',
        status: 'WARN',
        details: 'Repository name has unusual characters',
      },
      {
        checkId: 'ci.trigger',
        status: 'FAIL',
        details: 'Event pull_request_target is not trusted',
      },
    ],
    decision: 'BLOCK',
    reasons: ['malformed_repository', 'untrusted_trigger_event'],
    receiptSignature: undefined,
  });
  return view(stored, {
    status: 'failure',
    serviceUrl: 'http://localhost:3000',
    verifyUrl: `http://localhost:3000/verify?hash=${encodeURIComponent(stored.receiptHash)}`,
    apiVerifyUrl: `http://localhost:3000/api/v1/receipt/${stored.receiptId}/verify`,
  });
}

/** A clean receipt that was later revoked. */
export function revokedView(): ReceiptView {
  return view(receipt({ receiptId: 'c7a94f0e-1b2d-4e8f-a3c6-5d9b0e7f2a18' }), {
    status: 'revoked',
    revocation: {
      status: 'REVOKED',
      revokedAt: '2025-04-01T09:30:00.000Z',
      issuerId: 'issuer-acme-legal',
    },
  });
}

export const LONG_DETAILS = Array.from({ length: 40 }, (_, i) => `segment-${i} of a long note;`)
  .join(' ')
  .padEnd(2000, ' lorem ipsum')
  .slice(0, 2000);

/** 60 checks (one with 2,000 characters of details): forces page breaks. */
export function manyChecksView(): ReceiptView {
  const statuses: CheckResult['status'][] = ['PASS', 'WARN', 'FAIL'];
  const checks: CheckResult[] = Array.from({ length: 60 }, (_, i) => ({
    checkId: `check_${String(i + 1).padStart(2, '0')}`,
    status: statuses[i % 3] ?? 'PASS',
    details: i === 10 ? LONG_DETAILS : `Details of check ${i + 1}: observed value within bounds.`,
  }));
  return view(
    receipt({ receiptId: '1e2d3c4b-5a69-4788-8a9b-0c1d2e3f4a5b', checks, decision: 'FLAG' }),
    { status: 'compliance_gap' },
  );
}

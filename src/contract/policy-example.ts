/** GET /policies/ron-standard-v1, as served (test/contract/examples.test.ts keeps it in step). */
export const POLICY_PROFILE_EXAMPLE = {
  id: 'ron-standard-v1',
  name: 'ron-standard',
  version: 'v1',
  kind: 'ron',
  description:
    'Every v1 RON check. Gaps in evidence (no document, opaque seal, no screening lists) FLAG.',
  checks: [
    {
      checkId: 'doc.hash',
      reasons: ['document_not_provided', 'doc_hash_mismatch', 'document_not_pdf'],
    },
    {
      checkId: 'ron.seal',
      reasons: [
        'notary_not_registered',
        'seal_unverifiable',
        'seal_invalid',
        'seal_claim_mismatch',
        'seal_issued_in_future',
      ],
    },
    {
      checkId: 'ron.commission',
      reasons: [
        'notary_not_registered',
        'commission_record_invalid',
        'commission_state_mismatch',
        'commission_expired',
      ],
    },
    {
      checkId: 'property.jurisdiction',
      reasons: ['unknown_state_code', 'interstate_notarization'],
    },
    {
      checkId: 'ocr.consistency',
      reasons: ['ocr_mismatch'],
    },
    {
      checkId: 'registry.screening',
      reasons: [
        'screening_subject_missing',
        'screening_subject_unusable',
        'screening_unavailable',
        'screening_strong_match',
        'screening_possible_match',
      ],
    },
    {
      checkId: 'request.timestamp',
      reasons: ['timestamp_invalid', 'timestamp_in_future', 'timestamp_stale'],
    },
  ],
  rules: {
    opaqueSeal: 'WARN',
    requireDocument: false,
    requireScreening: false,
    interstateNotarization: 'PASS',
  },
  decision: {
    rules: [
      {
        decision: 'BLOCK',
        anyCheck: 'FAIL',
      },
      {
        decision: 'FLAG',
        anyCheck: 'WARN',
      },
    ],
    otherwise: 'ALLOW',
  },
} as const;

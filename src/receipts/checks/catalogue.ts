/**
 * Every checkId this service emits and every reason label each one can produce. Labels are
 * stable snake_case strings that integrations match on; a label is never reused with another
 * meaning. docs/checks.md documents each of them (a test keeps the two in step).
 */
export const CHECK_REASONS = {
  'policy.profile': ['unknown_policy_profile'],
  'doc.hash': ['document_not_provided', 'doc_hash_mismatch', 'document_not_pdf'],
  'doc.signatures': [
    'document_not_provided',
    'document_unreadable',
    'document_unsigned',
    'document_signature_invalid',
    'document_modified_after_signing',
    'signer_certificate_expired',
    'signer_certificate_revoked',
    'signer_not_trusted',
    'signer_not_registered_notary',
    'signing_time_outside_commission',
    'signer_revocation_unknown',
  ],
  'ron.seal': [
    'notary_not_registered',
    'seal_unverifiable',
    'seal_invalid',
    'seal_claim_mismatch',
    'seal_issued_in_future',
  ],
  'ron.commission': [
    'notary_not_registered',
    'commission_record_invalid',
    'commission_state_mismatch',
    'commission_expired',
  ],
  'property.jurisdiction': ['unknown_state_code', 'interstate_notarization'],
  'ocr.consistency': ['ocr_mismatch'],
  'registry.screening': [
    'screening_subject_missing',
    'screening_subject_unusable',
    'screening_unavailable',
    'screening_strong_match',
    'screening_possible_match',
  ],
  'request.timestamp': ['timestamp_invalid', 'timestamp_in_future', 'timestamp_stale'],
  'ci.commit': ['malformed_commit_id'],
  'ci.repository': ['malformed_repository', 'repository_not_allowed', 'repository_unclaimed'],
  'ci.trigger': ['untrusted_trigger_event'],
  'ci.identity': [
    'identity_unverified',
    'identity_invalid',
    'identity_mismatch',
    'identity_replayed',
  ],
  'ci.runner': ['runner_unverified', 'self_hosted_runner'],
  'ci.branch': ['default_branch_unverified', 'not_default_branch'],
} as const;

export type CheckId = keyof typeof CHECK_REASONS;

/** The reason labels check `C` may emit. */
export type ReasonFor<C extends CheckId> = (typeof CHECK_REASONS)[C][number];

/** The RON checks in the fixed order they run and appear in a receipt. */
export const RON_CHECK_ORDER = [
  'doc.hash',
  'doc.signatures',
  'ron.seal',
  'ron.commission',
  'property.jurisdiction',
  'ocr.consistency',
  'registry.screening',
  'request.timestamp',
] as const satisfies readonly CheckId[];

export type RonCheckId = (typeof RON_CHECK_ORDER)[number];

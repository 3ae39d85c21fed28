import type { ServiceErrorCode } from '../errors.js';

/** Every error a client can see: the `error` strings of docs/decisions/0018-errors.md plus routing/masking codes. */
export const ERROR_STATUS = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  receipt_not_found: 404,
  not_found: 404,
  proof_artifact_required_for_anchor: 409,
  rate_limited: 429,
  internal_error: 500,
  dependency_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The one mapping of domain codes to ErrorResponse `error` strings (and so to statuses). A code
 * that only a faulty store or a bug can produce answers 503 with a masked message; the test
 * in test/http/api-error.test.ts keeps this table total and free of accidental 500s.
 */
export const SERVICE_ERROR_RESPONSE: Record<ServiceErrorCode, ErrorCode> = {
  unknown_screening_source: 'validation_failed',
  receipt_not_found: 'receipt_not_found',
  proof_artifact_required_for_anchor: 'proof_artifact_required_for_anchor',
  external_id_conflict: 'validation_failed',
  policy_not_found: 'not_found',
  ci_identity_unavailable: 'dependency_unavailable',
  ci_facts_unavailable: 'dependency_unavailable',
  subject_digest_invalid: 'validation_failed',
  // the store holds a row the service did not write: the store is unusable for that receipt
  receipt_integrity_failed: 'dependency_unavailable',
  revocation_unauthorized: 'unauthorized',
  revocation_forbidden: 'forbidden',
  checkpoint_not_found: 'not_found',
  invalid_log_range: 'validation_failed',
  invalid_tile_path: 'validation_failed',
  tile_not_found: 'not_found',
  seal_input_invalid: 'validation_failed',
  // a list file the operator configured cannot be read: the dependency is unavailable
  screening_list_unreadable: 'dependency_unavailable',
  // the log's stored nodes or notes are not what the log wrote: the log store is unusable
  invalid_argument: 'dependency_unavailable',
  malformed_hash: 'dependency_unavailable',
  missing_node: 'dependency_unavailable',
  invalid_input: 'dependency_unavailable',
  malformed_note: 'dependency_unavailable',
  malformed_checkpoint: 'dependency_unavailable',
  unknown_key: 'dependency_unavailable',
  invalid_signature: 'dependency_unavailable',
  webhook_target_refused: 'validation_failed',
  webhook_not_found: 'not_found',
  webhook_limit_reached: 'validation_failed',
  signing_disabled: 'dependency_unavailable',
  config_invalid: 'dependency_unavailable',
  store_locked: 'dependency_unavailable',
  cli_usage: 'validation_failed',
  check_run_refused: 'validation_failed',
  webhook_unauthorized: 'unauthorized',
  webhook_invalid: 'validation_failed',
  setup_forbidden: 'forbidden',
  // GitHub refused or could not be reached while exchanging the manifest code
  setup_failed: 'dependency_unavailable',
};

/** Messages of 503s that come from domain codes: what the client may know, nothing more. */
const MASKED_MESSAGE = 'a required dependency of the service is unavailable, retry later';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
  }

  /** The ErrorResponse of a domain error: its message and details unless they are masked. */
  static fromService(code: ServiceErrorCode, message: string, details?: unknown): ApiError {
    const error = SERVICE_ERROR_RESPONSE[code];
    return ERROR_STATUS[error] >= 500
      ? new ApiError(error, MASKED_MESSAGE)
      : new ApiError(error, message, details);
  }

  toResponse(): { error: ErrorCode; message: string; details?: unknown } {
    return this.details === undefined
      ? { error: this.code, message: this.message }
      : { error: this.code, message: this.message, details: this.details };
  }
}

/** The answer for a method and path no route serves. */
export function noRouteError(method: string, url: string): ApiError {
  return new ApiError('not_found', `no route ${method} ${url}`);
}

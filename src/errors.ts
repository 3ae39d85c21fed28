/**
 * The one error family below the HTTP layer. Every error the service raises on purpose is a
 * ServiceError with a typed `code`; `src/http/api-error.ts` is the only place that turns a code
 * into an HTTP status (a test checks every code maps to a documented ErrorResponse).
 */
export const SERVICE_ERROR_CODES = [
  // receipts: a request that cannot be issued, or a use case refused
  'unknown_screening_source',
  'receipt_not_found',
  'proof_artifact_required_for_anchor',
  'external_id_conflict',
  // receipts: GET /policies/{profile} for a profile this service does not define
  'policy_not_found',
  // receipts: the OIDC issuer of a CI token could not be reached (its keys are unknown)
  'ci_identity_unavailable',
  // receipts: GitHub could not be asked a repository's default branch (ci-provenance-v2)
  'ci_facts_unavailable',
  // http: the x-ci-subject-digest header is not sha256:<64 lowercase hex>
  'subject_digest_invalid',
  // receipts: a stored receipt no longer verifies (hash, row or signature): nothing is signed over it
  'receipt_integrity_failed',
  'revocation_unauthorized',
  'revocation_forbidden',
  // anchoring: the log's published state (AnchorService)
  'checkpoint_not_found',
  'invalid_log_range',
  // anchoring: the public tile API (c2sp.org/tlog-tiles)
  'invalid_tile_path',
  'tile_not_found',
  // receipts: operator input to signing tools, screening list files
  'seal_input_invalid',
  'screening_list_unreadable',
  // anchoring: proofs, appends and wire forms (LogError)
  'invalid_argument',
  'malformed_hash',
  'missing_node',
  // anchoring: signed notes and checkpoints (CheckpointError)
  'invalid_input',
  'malformed_note',
  'malformed_checkpoint',
  'unknown_key',
  'invalid_signature',
  // webhooks: a subscription's target refused (form or address), a subscription or delivery
  // unknown (or disabled, for redelivery and test events), a tenant's subscriptions at their limit
  'webhook_target_refused',
  'webhook_not_found',
  'webhook_limit_reached',
  // signing
  'signing_disabled',
  // process edges: configuration, the embedded store's lock, the CLI, GitHub check runs
  'config_invalid',
  'store_locked',
  'cli_usage',
  'check_run_refused',
  'webhook_unauthorized',
  'webhook_invalid',
  'setup_forbidden',
  'setup_failed',
] as const;

export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

export class ServiceError<C extends ServiceErrorCode = ServiceErrorCode> extends Error {
  override name = 'ServiceError';

  constructor(
    readonly code: C,
    message: string,
    options: { cause?: unknown; details?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.details !== undefined) this.details = options.details;
  }

  /** Context safe to show a client (ids, paths, limits): never secrets, SQL or stacks. */
  readonly details?: unknown;
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

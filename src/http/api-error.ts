/** Every error a client can see: the `error` strings of decisions.md plus routing/masking codes. */
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

  toResponse(): { error: ErrorCode; message: string; details?: unknown } {
    return this.details === undefined
      ? { error: this.code, message: this.message }
      : { error: this.code, message: this.message, details: this.details };
  }
}

export const receiptNotFound = (): ApiError =>
  new ApiError('receipt_not_found', 'no receipt with that id is visible to this API key');

/** Why a request cannot be issued at all (as opposed to a check that FAILs inside a receipt). */
export type IssuanceErrorCode = 'unknown_screening_source';

export class IssuanceError extends Error {
  override name = 'IssuanceError';
  constructor(
    readonly code: IssuanceErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

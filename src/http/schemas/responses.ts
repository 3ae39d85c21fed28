import { ErrorResponse } from '../../contract/common.js';

/** `{ 400: ErrorResponse, 401: ErrorResponse, ... }` for a route's documented error statuses. */
export function errorResponses<S extends number>(
  ...statuses: S[]
): Record<S, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorResponse])) as Record<
    S,
    typeof ErrorResponse
  >;
}

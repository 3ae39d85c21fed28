import { describe, expect, it } from 'vitest';
import { SERVICE_ERROR_CODES, ServiceError } from '../../src/errors.js';
import { ApiError, ERROR_STATUS, SERVICE_ERROR_RESPONSE } from '../../src/http/api-error.js';
import { toApiError } from '../../src/http/plugins/errors.js';

/** The `error` strings docs/api.md documents (docs/decisions/0018-errors.md plus routing codes). */
const DOCUMENTED = [
  'validation_failed',
  'unauthorized',
  'forbidden',
  'receipt_not_found',
  'not_found',
  'proof_artifact_required_for_anchor',
  'rate_limited',
  'dependency_unavailable',
];

describe('every domain error code maps to a documented ErrorResponse', () => {
  it('the mapping table covers exactly the codes of the error family', () => {
    expect(Object.keys(SERVICE_ERROR_RESPONSE).sort()).toEqual([...SERVICE_ERROR_CODES].sort());
  });

  for (const code of SERVICE_ERROR_CODES) {
    it(`${code} -> a documented error, never a 500`, () => {
      const apiError = toApiError(new ServiceError(code, `why ${code}`, { details: { x: 1 } }), 1);
      expect(DOCUMENTED).toContain(apiError.code);
      expect(apiError.statusCode).not.toBe(500);
      expect(apiError.statusCode).toBe(ERROR_STATUS[apiError.code]);
      if (apiError.statusCode >= 500) {
        // masked: the domain's message and details never reach the client on a 5xx
        expect(apiError.toResponse()).toEqual({
          error: 'dependency_unavailable',
          message: expect.not.stringContaining(code),
        });
      } else {
        expect(apiError.toResponse()).toEqual({
          error: apiError.code,
          message: `why ${code}`,
          details: { x: 1 },
        });
      }
    });
  }

  it('anything else is a masked 500', () => {
    const apiError = toApiError(new Error('relation "receipts" does not exist'), 1);
    expect(apiError).toBeInstanceOf(ApiError);
    expect(apiError.toResponse()).toEqual({ error: 'internal_error', message: 'internal error' });
  });
});

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isStoreUnavailable } from '../../storage/unavailable.js';
import { isServiceError } from '../../errors.js';
import { ApiError, noRouteError } from '../api-error.js';

/** Headers that carry proof of who is asking: a malformed one is a failed authentication. */
const CREDENTIAL_HEADERS = new Set([
  'x-api-key',
  'authorization',
  'x-issuer-id',
  'x-issuer-signature',
  'x-signature-timestamp',
  'x-ci-oidc-token',
]);

/**
 * The one error handler: every failure leaves as an ErrorResponse. Validation errors carry the
 * offending paths; 5xx bodies are masked (no stack, no SQL) and the real error is logged.
 */
export function toApiError(err: unknown, bodyLimitBytes: number): ApiError {
  if (err instanceof ApiError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    if (err.validationContext === 'headers') {
      const headers = err.validation.map((issue) => issue.instancePath.replace(/^\//, ''));
      // credentials that fail are a 401; any other header (x-ci-run, ...) is ordinary input
      if (headers.every((name) => CREDENTIAL_HEADERS.has(name))) {
        return new ApiError('unauthorized', 'missing or malformed authorization headers', {
          headers,
        });
      }
    }
    const details = err.validation.map((issue) => ({
      in: err.validationContext ?? 'request',
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'invalid',
    }));
    return new ApiError('validation_failed', 'request validation failed', details);
  }
  if (isServiceError(err)) return ApiError.fromService(err.code, err.message, err.details);
  if (isStoreUnavailable(err)) {
    return new ApiError('dependency_unavailable', 'the receipt store is unavailable, retry later');
  }
  const fe = err as Partial<FastifyError>;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new ApiError('validation_failed', `request body exceeds ${bodyLimitBytes} bytes`, {
      limitBytes: bodyLimitBytes,
    });
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 404) return new ApiError('not_found', 'no such route');
    if (fe.statusCode === 429) return new ApiError('rate_limited', 'rate limit exceeded');
    // malformed JSON, unsupported content type, bad content-length, bad URL encoding...
    return new ApiError('validation_failed', fe.message ?? 'bad request');
  }
  return new ApiError('internal_error', 'internal error');
}

/** Fastify's `frameworkErrors`: a URL the router cannot decode, answered as an ErrorResponse. */
export function malformedUrlHandler(
  _error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const error = new ApiError('validation_failed', 'malformed request URL');
  void reply.code(400).header('x-request-id', request.id).send(error.toResponse());
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser rejects before any route runs (a request
 * not received within REQUEST_TIMEOUT_MS, oversized headers, bytes that are not HTTP) still gets
 * an ErrorResponse, then the connection is closed.
 */
export function clientErrorHandler(requestTimeoutMs: number) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, `the request was not received within ${requestTimeoutMs} ms`]
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'request headers too large']
          : [400, 'malformed HTTP request'];
    const body = JSON.stringify(new ApiError('validation_failed', message).toResponse());
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

export default fp(
  async function errorsPlugin(app: FastifyInstance, opts: { bodyLimitBytes: number }) {
    app.setErrorHandler((err, request, reply) => {
      const apiError = toApiError(err, opts.bodyLimitBytes);
      if (apiError.statusCode >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ error: apiError.code }, apiError.message);
      return reply.status(apiError.statusCode).send(apiError.toResponse());
    });
    app.setNotFoundHandler((request, reply) =>
      reply.status(404).send(noRouteError(request.method, request.url).toResponse()),
    );
  },
  { name: 'errors' },
);

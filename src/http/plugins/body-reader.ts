import type { IncomingMessage } from 'node:http';
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import { LIMITS } from '../../contract/limits.js';
import { ApiError } from '../api-error.js';
import { JsonDepthScanner } from '../json-depth.js';

/**
 * Of a body nobody reads (an unknown route, a body refused before its end), at most the route's
 * body limit and this much more is received and dropped once the answer is sent: so a client
 * which sends its whole body before it reads (most do) finishes sending any body the route could
 * have accepted, and reads the answer. A connection closed while its body still arrives is reset,
 * and the reset takes the unread answer with it. Dropped bytes are neither kept nor parsed:
 * receiving them costs the kernel's copy, no more, and the request timeout bounds how long it may
 * take.
 */
export const DISCARD_MARGIN_BYTES = 1024 * 1024;

/** Requests whose body is being dropped after their answer (see `keepOpenWhileDropping`). */
const lingering = new WeakSet<FastifyRequest>();

/**
 * Fastify answers a body refused before its end with `Connection: close`, and Node then closes
 * the connection at once: the body still arriving makes it a reset, in which a client still
 * sending may lose the answer. The connection stays open instead while discardBody drops the
 * rest, bounded by the route's body limit, DISCARD_MARGIN_BYTES and the request timeout.
 */
export function keepOpenWhileDropping(request: FastifyRequest, reply: FastifyReply): void {
  if (lingering.has(request)) reply.removeHeader('connection');
}

/**
 * The rest of the body is dropped as it arrives; past the route's body limit and
 * DISCARD_MARGIN_BYTES after the answer, the connection closes.
 */
export function discardBody(request: FastifyRequest, payload: IncomingMessage = request.raw): void {
  lingering.add(request);
  const { socket } = request.raw;
  const writtenBefore = socket.bytesWritten;
  const max = request.routeOptions.bodyLimit + DISCARD_MARGIN_BYTES;
  let discarded = 0;
  payload.removeAllListeners('data');
  payload.on('data', (chunk: Buffer) => {
    // counted from the answer's first byte on this connection
    if (socket.bytesWritten > writtenBefore) discarded += chunk.length;
    if (discarded > max) socket.destroy();
  });
  payload.resume();
}

export const tooDeep = (): ApiError =>
  new ApiError(
    'validation_failed',
    `request body nests arrays and objects more than ${LIMITS.jsonDepth} levels deep`,
    { limitDepth: LIMITS.jsonDepth },
  );

type Done = (err: Error | null, body?: Buffer) => void;

/**
 * A JSON body's bytes, refused as soon as they pass the route's body limit or nest deeper than
 * LIMITS.jsonDepth: the depth is counted on each chunk as it arrives, so a body of nested
 * brackets is refused at its 65th byte, and what follows is dropped, never parsed or kept.
 */
export function readJsonBody(request: FastifyRequest, payload: IncomingMessage, done: Done): void {
  const limit = request.routeOptions.bodyLimit;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return refuse(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const scanner = new JsonDepthScanner(LIMITS.jsonDepth);
  const chunks: Buffer[] = [];
  let received = 0;

  function refuse(err: Error): void {
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    discardBody(request, payload);
    done(err);
  }
  function onData(chunk: Buffer): void {
    received += chunk.length;
    if (received > limit) return refuse(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    if (scanner.feed(chunk)) return refuse(tooDeep());
    chunks.push(chunk);
  }
  function onEnd(): void {
    payload.removeListener('data', onData);
    payload.removeListener('error', onError);
    if (!Number.isNaN(declared) && received !== declared)
      return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    done(null, Buffer.concat(chunks, received));
  }
  function onError(): void {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    done(new ApiError('validation_failed', 'the request body could not be read'));
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, noRouteError } from '../api-error.js';
import { discardBody, keepOpenWhileDropping, readJsonBody } from './body-reader.js';

/** A UTF-16 surrogate not in a pair: with the u flag, a paired one is read as one code point. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** U+0000 (PostgreSQL text and jsonb cannot hold it) or a UTF-16 surrogate not in a pair. */
const unstorable = (s: string) => s.includes('\u0000') || LONE_SURROGATE.test(s);

/**
 * Where `value` holds a string (or key) the store cannot keep, as a dotted path; else undefined.
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function unstorableStringPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop() as [unknown, string];
    if (typeof node === 'string') {
      if (unstorable(node)) return path;
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, path ? `${path}.${i}` : String(i)]));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const child = path ? `${path}.${key}` : key;
        if (unstorable(key)) return child;
        stack.push([item, child]);
      }
    }
  }
  return undefined;
}

/**
 * Where the value parsed from JSON `text` holds a string the store cannot keep. JSON.parse refuses
 * a raw control character, so a parsed U+0000 or lone surrogate comes from a `\u` escape or from
 * a lone surrogate in the text itself. A text with neither is not walked: on the bench's
 * issuance request the walk took about 18 us and the two scans of the text 0.2 us (V8 knows a
 * one-byte string holds no surrogate). A body with any `\u` escape (Python's json.dumps writes
 * one for every non-ASCII character) is walked as before.
 */
export function unstorableBodyPath(text: string, value: unknown): string | undefined {
  if (!text.includes('\\u') && !LONE_SURROGATE.test(text)) return undefined;
  return unstorableStringPath(value);
}

/** The request says a body follows: a length above zero, or a chunked body. */
function announcesBody(headers: FastifyRequest['headers']): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A request for no route with a body is answered 404 before its body is read: nothing is
 * parsed or buffered for a route that does not exist, whatever the method and content type.
 */
function refuseBodiesOfUnknownRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404 || !announcesBody(request.headers)) {
      done();
      return;
    }
    discardBody(request);
    void reply.code(404).send(noRouteError(request.method, request.url).toResponse());
  });
}

/** Only a route with a body schema parses its body; for the others (revoke, anchor...) it is ignored. */
const takesBody = (request: FastifyRequest) => request.routeOptions.schema?.body !== undefined;

const unstorableError = (path: string) => {
  const message = 'must not contain U+0000 or an unpaired UTF-16 surrogate';
  return new ApiError('validation_failed', `request body ${message}`, [
    { in: 'body', path, message },
  ]);
};

/**
 * JSON bodies with Fastify's own safe parser (prototype-poisoning protection), read by
 * body-reader.ts: refused at the body limit or past LIMITS.jsonDepth as the bytes arrive, before
 * anything is parsed. Only a route with a body schema has its body parsed; the others (revoke,
 * re-verify, anchor) read it within the same limits and ignore it, and an empty body with a JSON
 * content type is "no body" (`curl -X POST -H 'content-type: application/json'` is not an error).
 * Strings the store cannot keep (U+0000, unpaired surrogates: not I-JSON, RFC 7493) are a 400.
 */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    refuseBodiesOfUnknownRoutes(app);
    app.addHook('onSend', async (request, reply) => keepOpenWhileDropping(request, reply));
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', (request, payload, done) => {
      readJsonBody(request, payload, (err, bytes) => {
        if (err) return done(err, undefined);
        const text = bytes?.toString('utf8') ?? '';
        if (!takesBody(request) || text.trim() === '') return done(null, undefined);
        parse(request, text, (parseError, value) => {
          if (parseError) return done(parseError, undefined);
          const path = unstorableBodyPath(text, value);
          if (path === undefined) return done(null, value);
          done(unstorableError(path), undefined);
        });
      });
    });
  },
  { name: 'json-body', dependencies: ['errors'] },
);

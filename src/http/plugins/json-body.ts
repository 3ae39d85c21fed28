import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../api-error.js';

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

/**
 * JSON bodies with Fastify's own safe parser (prototype-poisoning protection), except that an
 * empty body with a JSON content type is "no body": `curl -X POST -H 'content-type:
 * application/json'` on a no-body endpoint (revoke, re-verify, anchor) is not an error.
 * Strings the store cannot keep (U+0000, unpaired surrogates: not I-JSON, RFC 7493) are a 400.
 */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if ((body as string).trim() === '') {
        done(null, undefined);
        return;
      }
      parse(request, body as string, (err, value) => {
        if (err) return done(err, undefined);
        const path = unstorableBodyPath(body as string, value);
        if (path === undefined) return done(null, value);
        const message = 'must not contain U+0000 or an unpaired UTF-16 surrogate';
        done(
          new ApiError('validation_failed', `request body ${message}`, [
            { in: 'body', path, message },
          ]),
          undefined,
        );
      });
    });
  },
  { name: 'json-body' },
);

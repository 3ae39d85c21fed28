import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * JSON bodies with Fastify's own safe parser (prototype-poisoning protection), except that an
 * empty body with a JSON content type is "no body": `curl -X POST -H 'content-type:
 * application/json'` on a no-body endpoint (revoke, re-verify, anchor) is not an error.
 */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' || (typeof body === 'string' && body.trim() === '')) {
        done(null, undefined);
        return;
      }
      parse(request, body as string, done);
    });
  },
  { name: 'json-body' },
);

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ReceiptListItem } from '../../contract/lifecycle.js';
import { RECEIPT_LIST_ITEM_EXAMPLE } from '../../contract/examples.js';
import {
  VerificationReceipt,
  VerificationRequest,
  VerificationResponse,
} from '../../contract/verification.js';
import { API_PREFIX } from '../../contract/links.js';
import { linkNextPage } from '../next-page.js';
import { principalOf } from '../plugins/auth.js';
import { ListQuery, ReceiptIdParams } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';
import { PreferHeader } from '../prefer.js';
import { waitForLog, waitRanOutNote } from '../wait-for-log.js';
import { listItemOf, verificationReceiptJson, verificationResponseOf } from '../views.js';

/** A body already JSON (checked against the schema when rendered): Fastify sends it as it is. */
function sendSerialized(reply: FastifyReply, json: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** POST /verify, GET /receipt/:id, GET /receipts. */
export default async function receiptRoutes(fastify: FastifyInstance) {
  issueRoute(fastify);
  receiptRoute(fastify);
  listRoute(fastify);
}

/** POST /verify: issue a receipt (with `Prefer: wait=N`, once it is in a signed checkpoint). */
function issueRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/verify', {
    config: { scope: 'verify', cpuHeavy: true },
    schema: {
      tags: ['receipts'],
      summary: 'Issue a receipt: run the checks on a document and sign the decision',
      description:
        'The "verify" that creates receipts. To re-check a stored receipt use POST ' +
        '/api/v1/receipt/{receiptId}/verify; to check a receipt you were given, with no key, ' +
        'use the /verify page or `npx @verification-receipts/verify`. The example is the request ' +
        'for docs/sample-deed.pdf, sealed by the sample notary N-1: register its key ' +
        '(docs/examples/sample-notary.pub.pem) for your tenant to get an ALLOW.',
      security: [{ apiKey: [] }],
      body: VerificationRequest,
      headers: z.object({ prefer: PreferHeader() }),
      response: { 200: VerificationResponse, ...errorResponses(400, 401, 403, 429, 503) },
    },
    handler: async (request, reply) => {
      const { tenant } = principalOf(request);
      const record = await app.services.receipts.issueRon(tenant, request.body);
      const waited = await waitForLog(app, request, reply, tenant, record.id);
      if (!waited) return verificationResponseOf(record);
      const answer = {
        ...verificationResponseOf(waited.record),
        ...(waited.witnessing && { witnessing: waited.witnessing }),
      };
      if (waited.logEntry) return { ...answer, logEntry: waited.logEntry };
      // the wait ran out: the answer says so where a client looks for the proof
      return answer.anchor.status === 'PENDING' && !answer.anchor.note
        ? { ...answer, anchor: { ...answer.anchor, note: waitRanOutNote(waited.wait) } }
        : answer;
    },
  });
}

/** GET /receipt/:id: a stored receipt, serialized once. */
function receiptRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/receipt/:receiptId', {
    config: { scope: 'read' },
    schema: {
      tags: ['receipts'],
      summary: 'Fetch a stored receipt with its canonical form',
      security: [{ apiKey: [] }],
      params: ReceiptIdParams,
      response: { 200: VerificationReceipt, ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request, reply) => {
      const record = await app.services.receipts.get(
        principalOf(request).tenant,
        request.params.receiptId,
      );
      return sendSerialized(reply, verificationReceiptJson(record));
    },
  });
}

/** GET /receipts: a page of receipts, newest first, with the next page's cursor and link. */
function listRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/receipts', {
    config: { scope: 'read' },
    schema: {
      tags: ['receipts'],
      summary: 'List recent receipts, newest first',
      description:
        'Paged with ?limit= (default 50, max 200) and ?cursor=. The cursor for the next page is ' +
        'returned in the x-next-cursor header (and a Link rel="next" header, filters kept); no ' +
        'header means this is the last page. Filters (combined): status, decision, bundleId, ' +
        'docHash, externalId, createdAfter, createdBefore; a value that cannot match is ignored, ' +
        'never a 400.',
      security: [{ apiKey: [] }],
      querystring: ListQuery,
      response: {
        200: z.array(ReceiptListItem).meta({ example: [RECEIPT_LIST_ITEM_EXAMPLE] }),
        ...errorResponses(401, 403, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { limit, cursor, ...filters } = request.query;
      const page = await app.services.receipts.list(
        principalOf(request).tenant,
        limit,
        cursor,
        filters,
      );
      linkNextPage(reply, `${API_PREFIX}/receipts`, { limit, cursor: page.nextCursor, ...filters });
      return page.items.map(listItemOf);
    },
  });
}

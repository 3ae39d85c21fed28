import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CiVerificationRequest, CiVerificationResponse } from '../../contract/ci.js';
import { ciResultOf } from '../../receipts/ci-result.js';
import { statusOf } from '../../receipts/status.js';
import type { ReceiptRecord } from '../../storage/receipts.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas/responses.js';
import { absoluteUrl, anchorStateOf, receiptPath } from '../views.js';

/** The adapter answer for a stored CI receipt; shared with the GitHub App. */
export function ciResponseOf(
  record: ReceiptRecord,
  publicUrl: string | undefined,
  detailsUrl?: string,
) {
  const receiptUrl = absoluteUrl(publicUrl, receiptPath(record.id));
  return ciResultOf({
    receipt: record.receipt,
    status: statusOf(record.receipt.decision, record.revokedAt !== null),
    anchorStatus: anchorStateOf(record).status,
    receiptUrl,
    pdfUrl: `${receiptUrl}/pdf`,
    detailsUrl: detailsUrl ?? (publicUrl ? receiptUrl : undefined),
  });
}

/** POST /verifications/ci: a workflow run becomes a receipt and a check-run style result. */
export default async function ciRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/verifications/ci', {
    config: { scope: 'verify' },
    schema: {
      tags: ['ci'],
      summary: 'Issue a receipt for a workflow run (idempotent per externalId)',
      security: [{ apiKey: [] }],
      body: CiVerificationRequest,
      response: { 200: CiVerificationResponse, ...errorResponses(400, 401, 403, 429, 503) },
    },
    handler: async (request) => {
      const { record } = await app.issuer.issueCi(principalOf(request).tenant, request.body);
      return ciResponseOf(record, app.settings.publicUrl, request.body.detailsUrl);
    },
  });
}

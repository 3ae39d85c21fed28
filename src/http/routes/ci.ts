import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CiVerificationRequest, CiVerificationResponse } from '../../contract/ci.js';
import { z } from 'zod';
import { ServiceError } from '../../errors.js';
import { MAX_TOKEN_LENGTH } from '../../receipts/ci-identity/oidc.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas/responses.js';
import { PreferHeader } from '../prefer.js';
import { waitForLog } from '../wait-for-log.js';

/** POST /verifications/ci: a workflow run becomes a receipt and a check-run style result. */
export default async function ciRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/verifications/ci', {
    config: { scope: 'verify', cpuHeavy: true },
    schema: {
      tags: ['ci'],
      summary: 'Issue a receipt for a workflow run (idempotent per externalId)',
      description:
        'Optional headers: x-ci-oidc-token (the run identity, check ci.identity) and ' +
        'x-ci-subject-digest (sha256:<hex> of the artifact the run produced, recorded in the ' +
        'receipt and named by its attestation), x-ci-run (<run id>/<run attempt>: the run the ' +
        "token must be of, needed with a token unless externalId is '<owner/repo>/<run id>/<attempt>').",
      security: [{ apiKey: [] }],
      body: CiVerificationRequest,
      headers: z.object({
        prefer: PreferHeader(),
        'x-ci-oidc-token': z
          .string()
          .max(MAX_TOKEN_LENGTH)
          .optional()
          .describe(
            "The run's OpenID Connect ID token (GitHub Actions id-token: write), audience = the service's PUBLIC_URL or CI_OIDC_AUDIENCE: proves who ran the workflow (check ci.identity)",
          ),
        'x-ci-run': z
          .string()
          .max(32)
          .regex(/^[0-9]{1,20}\/[0-9]{1,10}$/, 'must be <run id>/<run attempt>')
          .optional()
          .describe(
            'The run the request is about, as GitHub run_id/run_attempt: the OIDC token must be of this run',
          ),
      }),
      response: { 200: CiVerificationResponse, ...errorResponses(400, 401, 403, 429, 503) },
    },
    handler: async (request, reply) => {
      const [runId, attempt] = request.headers['x-ci-run']?.split('/') ?? [];
      const { tenant } = principalOf(request);
      const result = await app.services.receipts.ciResult(tenant, request.body, {
        oidcToken: request.headers['x-ci-oidc-token'],
        subjectDigest: subjectDigestOf(request.headers['x-ci-subject-digest']),
        run: runId && attempt ? { runId, attempt } : undefined,
      });
      const waited = await waitForLog(app, request, reply, tenant, result.receiptId);
      return {
        ...result,
        ...(waited?.logEntry && { logEntry: waited.logEntry }),
        ...(waited?.witnessing && { witnessing: waited.witnessing }),
      };
    },
  });
}

/**
 * The x-ci-subject-digest header as the domain's subject digest. It is checked here rather than
 * in the headers schema so that a bad value answers `subject_digest_invalid` naming the header.
 */
function subjectDigestOf(header: string | string[] | undefined): string | undefined {
  const digest = typeof header === 'string' ? header : undefined;
  if (digest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(digest)) {
    throw new ServiceError(
      'subject_digest_invalid',
      'x-ci-subject-digest must be sha256:<64 lowercase hex>',
      { details: { header: 'x-ci-subject-digest' } },
    );
  }
  return digest;
}

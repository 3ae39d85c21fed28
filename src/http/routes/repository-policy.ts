import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RepositoryPolicyCheckRequest,
  RepositoryPolicyCheckResult,
} from '../../contract/repository-policy.js';
import { repositoryPolicyReport } from '../../github/policy-check.js';
import { DEFAULT_TRUSTED_EVENTS } from '../../receipts/checks/ci.js';
import { errorResponses } from '../schemas/responses.js';

/**
 * POST /repository-policy/check: what `receipts policy check` says of a `.github/receipts.yml`,
 * for a workflow that has the service's address and a key but no clone of it (the composite
 * action's `policy-file` input). 200 whether the file is valid or not: the check itself ran.
 */
export default async function repositoryPolicyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const trustedEvents = app.settings.ciTrustedEvents ?? DEFAULT_TRUSTED_EVENTS;
  app.post('/repository-policy/check', {
    config: { scope: 'verify' },
    schema: {
      tags: ['deployments'],
      summary: "Check a repository's .github/receipts.yml as the GitHub App will read it",
      description:
        "The App's own YAML parser and schema, offline: the same answer as `receipts policy " +
        'check FILE`. A file the App cannot read rejects every gated deployment of the ' +
        'repository, so a workflow can check it before it reaches the default branch. ' +
        '`_extends` is not followed (a note says so).',
      security: [{ apiKey: [] }],
      body: RepositoryPolicyCheckRequest,
      response: {
        200: RepositoryPolicyCheckResult,
        ...errorResponses(400, 401, 403, 429, 503),
      },
    },
    handler: async (request) => repositoryPolicyReport(request.body.text, trustedEvents),
  });
}

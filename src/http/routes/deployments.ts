import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEPLOYMENT_DECISION_EXAMPLE, DeploymentDecision } from '../../contract/deployments.js';
import type { DeploymentGate } from '../../receipts/ports.js';
import { API_PREFIX } from '../../contract/links.js';
import { linkNextPage } from '../next-page.js';
import { principalOf } from '../plugins/auth.js';
import { firstValue, PageQuery } from '../schemas/params.js';
import { errorResponses } from '../schemas/responses.js';

const DeploymentsQuery = z.object({
  repository: z.preprocess(
    firstValue,
    z
      .string()
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/, 'owner/name')
      .describe('The repository, owner/name'),
  ),
  ...PageQuery.shape,
});

function decisionOf(gate: DeploymentGate): DeploymentDecision {
  return {
    id: gate.id,
    repository: gate.repository,
    environment: gate.environment,
    sha: gate.sha,
    state: gate.state === 'approved' ? 'approved' : 'rejected',
    reason: gate.reason ?? '',
    requestedAt: gate.requestedAt.toISOString(),
    decidedAt: (gate.decidedAt ?? gate.requestedAt).toISOString(),
    record: gate.record as DeploymentDecision['record'],
  };
}

/** GET /deployments: the GitHub App's deployment decisions for one repository. */
export default async function deploymentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/deployments', {
    config: { scope: 'read' },
    schema: {
      tags: ['deployments'],
      summary: "The deployment gate's decisions for a repository, newest first",
      description:
        'Every decision of the GitHub App on a deployment protection rule of the repository ' +
        '(docs/github-app.md, "Gate deployments"), with its signed record. Decisions belong to ' +
        "the installation's tenant (github-installation-<id>): use a read key of that tenant. " +
        'Paged with ?limit= (default 50, max 200) and ?cursor= (x-next-cursor header).',
      security: [{ apiKey: [] }],
      querystring: DeploymentsQuery,
      response: {
        200: z.array(DeploymentDecision).meta({ example: [DEPLOYMENT_DECISION_EXAMPLE] }),
        ...errorResponses(400, 401, 403, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { repository, limit, cursor } = request.query;
      const page = await app.services.deploymentGates.decided(
        principalOf(request).tenant,
        repository,
        limit,
        cursor,
      );
      linkNextPage(reply, `${API_PREFIX}/deployments`, {
        repository,
        limit,
        cursor: page.nextCursor,
      });
      return page.items.map(decisionOf);
    },
  });
}

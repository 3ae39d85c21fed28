import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { POLICIES_PATH } from '../../contract/links.js';
import { PolicyProfile, PolicyProfileList, PolicyProfileParams } from '../../contract/policies.js';
import { publishedPolicies, publishedPolicy } from '../../receipts/published-policies.js';
import { errorResponses } from '../schemas/responses.js';

/** Profiles change only with a release: a relying party may keep the answer for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';

/**
 * GET /policies and GET /policies/{profile}: no key, rate limited per client address (the
 * context registers the limit). What a receipt's `policyProfile` means; the VSA of its
 * attestation names the second as `policy.uri`.
 */
export default async function policyRoutes(fastify: FastifyInstance) {
  policyListRoute(fastify);
  policyRoute(fastify);
}

function policyListRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(POLICIES_PATH, {
    schema: {
      tags: ['public'],
      summary: 'The policy profiles receipts are judged under (no API key)',
      response: { 200: PolicyProfileList, ...errorResponses(429) },
    },
    handler: async (_request, reply) => {
      void reply.header('cache-control', CACHE_CONTROL);
      return { profiles: publishedPolicies() };
    },
  });
}

function policyRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(`${POLICIES_PATH}/:profile`, {
    schema: {
      tags: ['public'],
      summary: "One policy profile: its checks and what decides (a VSA's policy.uri)",
      params: PolicyProfileParams,
      response: { 200: PolicyProfile, ...errorResponses(400, 404, 429) },
    },
    handler: async (request, reply) => {
      const profile = publishedPolicy(request.params.profile);
      void reply.header('cache-control', CACHE_CONTROL);
      return profile;
    },
  });
}

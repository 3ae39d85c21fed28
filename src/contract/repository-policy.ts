import { z } from 'zod';

/**
 * POST /api/v1/repository-policy/check: a repository's `.github/receipts.yml` checked with the
 * GitHub App's own parser and schema, so a workflow (the composite action's `policy-file`) can
 * refuse a file the App would reject before it reaches the default branch.
 */

/** GitHub's contents API serves files up to 1 MB; a policy is a few hundred bytes. */
export const MAX_REPOSITORY_POLICY_BYTES = 64 * 1024;

export const REPOSITORY_POLICY_CHECK_EXAMPLE = {
  text: 'deployments:\n  production:\n    identity: oidc\n    wait: 30m\n',
} as const;

export const RepositoryPolicyCheckRequest = z
  .strictObject({
    text: z
      .string()
      .max(MAX_REPOSITORY_POLICY_BYTES)
      .describe('The whole text of the `.github/receipts.yml` to check (UTF-8, at most 64 KiB)'),
  })
  .meta({ id: 'RepositoryPolicyCheckRequest', example: REPOSITORY_POLICY_CHECK_EXAMPLE });
export type RepositoryPolicyCheckRequest = z.infer<typeof RepositoryPolicyCheckRequest>;

export const REPOSITORY_POLICY_CHECK_RESULT_EXAMPLE = {
  valid: true,
  problems: [],
  notes: [],
  environments: [
    "production: an ALLOW receipt of the commit issued by the composite action with the run's OIDC token (`id-token: write` and the service's audience set): the App's own receipts never meet it; waits 30m for it, then rejects",
  ],
} as const;

export const RepositoryPolicyCheckResult = z
  .strictObject({
    valid: z
      .boolean()
      .describe('The App reads the file as it is; false: it rejects every gated deployment'),
    problems: z
      .array(z.string())
      .describe('One line per problem, with its path in the file (empty when valid)'),
    notes: z.array(z.string()).describe('What the check could not judge from this file alone'),
    environments: z
      .array(z.string())
      .describe('For a valid file, one line per gated environment: which receipts can meet it'),
  })
  .meta({ id: 'RepositoryPolicyCheckResult', example: REPOSITORY_POLICY_CHECK_RESULT_EXAMPLE });
export type RepositoryPolicyCheckResult = z.infer<typeof RepositoryPolicyCheckResult>;

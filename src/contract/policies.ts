import { z } from 'zod';
import { CheckResult, Decision } from './common.js';
import { bounded, LIMITS } from './limits.js';
import { POLICY_PROFILE_EXAMPLE } from './policy-example.js';

/**
 * A policy profile as published at GET /policies/{profile}: what a receipt's `policyProfile`
 * (and its VSA's `policy.uri`) means. Built from the service's own profile objects
 * (src/receipts/published-policies.ts), so it says what the code runs.
 */

const PolicyCheck = z.strictObject({
  checkId: z.string().describe('The checkId its outcome carries (docs/checks.md)'),
  reasons: z.array(z.string()).describe('Every reason label it can give with a FAIL or WARN'),
});

const RonPolicyRules = z
  .strictObject({
    opaqueSeal: z
      .enum(['WARN', 'FAIL'])
      .describe('ron.seal for an opaque seal (no sealScheme): it cannot be verified, never PASS'),
    requireDocument: z
      .boolean()
      .describe('doc.hash without document bytes: FAIL when true, WARN when false'),
    requireScreening: z
      .boolean()
      .describe(
        'registry.screening when screening cannot happen (no usable subject, no lists, a list unreadable): FAIL when true, WARN when false',
      ),
    interstateNotarization: z
      .enum(['PASS', 'WARN'])
      .describe(
        "property.jurisdiction when the notary's commission state differs from the property's",
      ),
    documentSignatures: z
      .strictObject({
        unsigned: z
          .enum(['WARN', 'FAIL'])
          .describe('doc.signatures for a document that carries no signature'),
        provesOpaqueSeal: z
          .boolean()
          .describe(
            "ron.seal passes an opaque seal when the registered notary's verified signature covers exactly this document",
          ),
        ocrFromDocumentText: z
          .boolean()
          .describe(
            "ocr.consistency reads the notary's name and commission id from the document's text when no OCR fields are sent",
          ),
      })
      .optional()
      .describe("doc.signatures (the notary's own X.509 signature in the document), when it runs"),
  })
  .meta({ id: 'RonPolicyRules' });

const CiPolicyRules = z
  .strictObject({
    hardened: z
      .boolean()
      .describe("ci.runner and ci.branch run: the run's runner and workflow ref are judged too"),
  })
  .meta({ id: 'CiPolicyRules' });

const DecisionRules = z.strictObject({
  rules: z
    .array(z.strictObject({ decision: Decision, anyCheck: CheckResult.shape.status }))
    .describe('In order: the first rule whose status any check has gives the decision'),
  otherwise: Decision.describe('The decision when no rule applies'),
});

export const PolicyProfile = z
  .strictObject({
    id: z.string().describe('What a request names (policy.profile) and a receipt records'),
    name: z.string().describe('The id without its version suffix'),
    version: z.string().describe('The version suffix: a published version never changes'),
    kind: z
      .enum(['ron', 'ci'])
      .describe('ron: POST /api/v1/verify; ci: POST /api/v1/verifications/ci'),
    description: z.string(),
    checks: z.array(PolicyCheck).describe('The checks it runs, in the order a receipt lists them'),
    rules: z.union([RonPolicyRules, CiPolicyRules]).describe('How strictly its checks judge'),
    decision: DecisionRules.describe('How the check statuses give ALLOW, FLAG or BLOCK'),
  })
  .meta({ id: 'PolicyProfile', example: POLICY_PROFILE_EXAMPLE });
export type PolicyProfile = z.infer<typeof PolicyProfile>;

export const PolicyProfileList = z
  .strictObject({ profiles: z.array(PolicyProfile) })
  .meta({ id: 'PolicyProfileList', example: { profiles: [POLICY_PROFILE_EXAMPLE] } });

export const PolicyProfileParams = z.object({
  profile: bounded(LIMITS.profile).describe("A profile id (a receipt's policyProfile)"),
});

import type { PolicyProfile as PublishedPolicy } from '../contract/policies.js';
import { CHECK_REASONS, RON_CHECK_ORDER, type CheckId } from './checks/catalogue.js';
import { DECISION_OTHERWISE, DECISION_RULES } from './checks/decision.js';
import { CI_PROFILES, ciProfileChecks, type CiProfile } from './ci-profiles.js';
import { ReceiptError } from './errors.js';
import { POLICY_PROFILES, type PolicyProfile } from './policy.js';

/**
 * The policy profiles as published (GET /policies): each profile object of policy.ts and
 * ci-profiles.ts as it is, with the checks it runs (and their reason labels from the catalogue)
 * and the decision rules `decide` applies. Nothing here is a second copy: a field added to a
 * profile appears in its view (and the response schema refuses it until documented).
 */

const decision = {
  rules: DECISION_RULES.map((rule) => ({ ...rule })),
  otherwise: DECISION_OTHERWISE,
};

function checksOf(ids: readonly CheckId[]): PublishedPolicy['checks'] {
  return ids.map((checkId) => ({ checkId, reasons: [...CHECK_REASONS[checkId]] }));
}

/** `ron-standard-v1` is version `v1` of `ron-standard`. */
function versioned(id: string): { name: string; version: string } {
  const match = /^(.+)-(v\d+)$/.exec(id);
  return match ? { name: match[1] ?? id, version: match[2] ?? '' } : { name: id, version: '' };
}

function ronView(profile: Readonly<PolicyProfile>): PublishedPolicy {
  const { id, description, checks, ...rules } = profile;
  // the checks run in RON_CHECK_ORDER whatever the profile's order
  const run = RON_CHECK_ORDER.filter((checkId) => checks.includes(checkId));
  return { id, ...versioned(id), kind: 'ron', description, checks: checksOf(run), rules, decision };
}

function ciView(profile: Readonly<CiProfile>): PublishedPolicy {
  const { id, description, ...rules } = profile;
  const checks = checksOf(ciProfileChecks(profile));
  return { id, ...versioned(id), kind: 'ci', description, checks, rules, decision };
}

const PUBLISHED: readonly PublishedPolicy[] = [
  ...POLICY_PROFILES.map(ronView),
  ...CI_PROFILES.map(ciView),
];

/** Every profile this service judges under: the RON profiles, then the CI ones. */
export function publishedPolicies(): PublishedPolicy[] {
  return structuredClone([...PUBLISHED]);
}

/** The profile with exactly this id (case-sensitive); `policy_not_found` for any other. */
export function publishedPolicy(id: string): PublishedPolicy {
  const found = PUBLISHED.find((profile) => profile.id === id);
  if (!found) {
    throw new ReceiptError('policy_not_found', 'no policy profile with that id is defined', {
      details: { known: PUBLISHED.map((profile) => profile.id) },
    });
  }
  return structuredClone(found);
}

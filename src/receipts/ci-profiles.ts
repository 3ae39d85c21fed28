/**
 * Policy profiles of CI receipts. Like the RON profiles (policy.ts), a published profile never
 * changes behaviour; a stricter variant gets a new id. The receipt records the profile it was
 * judged under. test/receipts/ci-profiles.test.ts pins both.
 */
import type { CheckId } from './checks/catalogue.js';

export interface CiProfile {
  id: string;
  description: string;
  /** `ci.runner` and `ci.branch` run: the run's runner and workflow ref are judged too. */
  hardened: boolean;
}

export const CI_PROFILE_V1 = 'ci-provenance-v1';
export const CI_PROFILE_V2 = 'ci-provenance-v2';

const profiles: CiProfile[] = [
  {
    id: CI_PROFILE_V1,
    description:
      'ci.commit, ci.repository, ci.trigger and ci.identity: a well-formed commit and repository, ' +
      'a trusted trigger event, and who ran the workflow proven (WARN when it is not).',
    hardened: false,
  },
  {
    id: CI_PROFILE_V2,
    description:
      'Every ci-provenance-v1 check, plus ci.runner (a GitHub-hosted runner) and ci.branch (the ' +
      "workflow file read from the repository's default branch); either unproven or not met: WARN.",
    hardened: true,
  },
];

export const CI_PROFILES: readonly Readonly<CiProfile>[] = Object.freeze(
  profiles.map((profile) => Object.freeze(profile)),
);

export const CI_PROFILE_IDS = CI_PROFILES.map((p) => p.id) as [string, ...string[]];

export function resolveCiProfile(id: string): CiProfile | undefined {
  return CI_PROFILES.find((profile) => profile.id === id);
}

/** The checks every CI profile runs, in the order `runCiChecks` runs them. */
const CI_CHECKS = [
  'ci.commit',
  'ci.repository',
  'ci.trigger',
  'ci.identity',
] as const satisfies readonly CheckId[];

/** What a hardened profile runs after CI_CHECKS: the run facts judged. */
const CI_HARDENED_CHECKS = ['ci.runner', 'ci.branch'] as const satisfies readonly CheckId[];

/** The checks `profile` runs, in order (`runCiChecks` gets run facts exactly when hardened). */
export function ciProfileChecks(profile: CiProfile): readonly CheckId[] {
  return profile.hardened ? [...CI_CHECKS, ...CI_HARDENED_CHECKS] : CI_CHECKS;
}

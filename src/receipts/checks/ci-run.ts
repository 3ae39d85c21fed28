import type { CheckOutcome } from '../types.js';
import { pass, quote, warn } from './outcome.js';

/**
 * What is known, from a source that proves it, about where a workflow ran: the checks of the
 * hardened CI profile (ci-provenance-v2) judge it. An unknown fact is a WARN, never a guess.
 */
export interface CiRunFacts {
  /** Where the facts come from, e.g. `oidc` or `github-app`. */
  source: string;
  /** `github-hosted` or `self-hosted` (GitHub's `runner_environment` values). */
  runnerEnvironment?: string | undefined;
  /** The git ref the workflow file was read from, e.g. `refs/heads/main`. */
  workflowRef?: string | undefined;
  /** The repository's default branch name, e.g. `main`. */
  defaultBranch?: string | undefined;
  /** Why a fact is unknown, for the checks' details. */
  unknown?: { runner?: string | undefined; branch?: string | undefined };
}

/** `ci.runner`: the jobs ran on GitHub-hosted runners (a fresh VM per job). */
export function checkRunner(facts: CiRunFacts): CheckOutcome {
  const env = facts.runnerEnvironment;
  if (env === 'github-hosted') {
    return pass('ci.runner', `GitHub-hosted runner (${facts.source})`);
  }
  if (env === 'self-hosted') {
    return warn(
      'ci.runner',
      'self_hosted_runner',
      `the run used a self-hosted runner (${facts.source}): its build environment is whatever the runner's owner made it`,
    );
  }
  return warn(
    'ci.runner',
    'runner_unverified',
    env === undefined
      ? `the runner is not proven${facts.unknown?.runner ? `: ${facts.unknown.runner}` : ''}`
      : `unknown runner environment ${quote(env)} (${facts.source})`,
  );
}

/** `ci.branch`: the workflow file was read from the repository's default branch. */
export function checkBranch(facts: CiRunFacts): CheckOutcome {
  const { workflowRef, defaultBranch } = facts;
  if (workflowRef === undefined || defaultBranch === undefined) {
    const missing = workflowRef === undefined ? 'the workflow ref' : 'the default branch';
    return warn(
      'ci.branch',
      'default_branch_unverified',
      `${missing} is not proven${facts.unknown?.branch ? `: ${facts.unknown.branch}` : ''}`,
    );
  }
  const expected = `refs/heads/${defaultBranch}`;
  return workflowRef === expected
    ? pass(
        'ci.branch',
        `workflow read from the default branch ${quote(expected)} (${facts.source})`,
      )
    : warn(
        'ci.branch',
        'not_default_branch',
        `workflow read from ${quote(workflowRef)}, not the default branch ${quote(expected)} (${facts.source})`,
      );
}

/** The ref part of a GitHub `workflow_ref` claim (`owner/repo/.github/workflows/x.yml@<ref>`). */
export function refOfWorkflowRef(workflowRef: string | undefined): string | undefined {
  if (workflowRef === undefined) return undefined;
  const at = workflowRef.lastIndexOf('@');
  return at >= 0 && at < workflowRef.length - 1 ? workflowRef.slice(at + 1) : undefined;
}

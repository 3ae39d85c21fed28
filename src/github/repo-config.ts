import type { Context } from 'probot';
import { z } from 'zod';
import { CI_PROFILE_IDS } from '../receipts/ci-profiles.js';
import { DeploymentsPolicy } from '../receipts/deployment-gates/policy.js';

/** The per-repository configuration file, read from the default branch by Probot. */
export const REPO_CONFIG_FILE = 'receipts.yml';
export const REPO_CONFIG_PATH = `.github/${REPO_CONFIG_FILE}`;

/**
 * `.github/receipts.yml` (docs/github-app.md). Unknown keys are rejected, so a typo such as
 * `trustedEvent:` fails the check run instead of silently falling back to the defaults.
 */
export const RepoConfig = z.strictObject({
  /** Workflow names or file paths (`.github/workflows/ci.yml` or `ci.yml`); absent: all. */
  workflows: z.array(z.string().min(1).max(256)).max(100).optional(),
  /** Trigger events this repository trusts; default: the service's trusted events. */
  trustedEvents: z.array(z.string().min(1).max(256)).max(100),
  /** The CI policy profile receipts are judged under; absent: the tenant's, else v1. */
  policyProfile: z.enum(CI_PROFILE_IDS).optional(),
  /** The deployment gate's policy per environment (`src/receipts/deployment-gates/policy.ts`); absent: no gate. */
  deployments: DeploymentsPolicy.optional(),
});
export type RepoConfig = z.infer<typeof RepoConfig>;

export type RepoConfigResult = { ok: true; config: RepoConfig } | { ok: false; message: string };

export function repoConfigDefaults(trustedEvents: readonly string[]) {
  return { trustedEvents: [...trustedEvents] };
}

/** A list in the file replaces the default list (deepmerge would otherwise concatenate). */
const replaceArrays = { arrayMerge: (_target: unknown[], source: unknown[]) => source };

/** Reads and validates the file; any problem is a message for a failing check run. */
export async function readRepoConfig(
  context: Context,
  defaultTrustedEvents: readonly string[],
): Promise<RepoConfigResult> {
  let raw: unknown;
  try {
    raw = await context.config(
      REPO_CONFIG_FILE,
      repoConfigDefaults(defaultTrustedEvents),
      replaceArrays,
    );
  } catch (err) {
    context.log.warn({ err }, `could not load ${REPO_CONFIG_PATH}`);
    return { ok: false, message: loadErrorMessage(err) };
  }
  const parsed = RepoConfig.safeParse(raw, { reportInput: true });
  if (parsed.success) return { ok: true, config: parsed.data };
  const issues = parsed.error.issues.map(describeIssue);
  return { ok: false, message: `${REPO_CONFIG_PATH} is invalid: ${issues.join('; ')}` };
}

/**
 * One problem on one line, with where it is: the path of the mapping it is in (an unknown key is
 * reported by the mapping that holds it, so its own name follows), and plain words for a value of
 * the wrong kind.
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `\`${k}\``).join(', ');
    return `${at ? `\`${at}\`: ` : ''}unknown key ${keys}`;
  }
  return `\`${at || '(file)'}\`: ${issue.code === 'invalid_type' ? wrongKind(issue) : issue.message}`;
}

const KIND: Partial<Record<string, string>> = {
  object: 'a mapping (keys and values)',
  array: 'a list',
  string: 'a text',
  boolean: 'true or false',
  number: 'a number',
};

/**
 * `expected a list, found a number`: what the schema wants and what the file holds, in words
 * (the issue carries the value when parsed with `reportInput`, as both readers of the file do).
 */
function wrongKind(issue: z.core.$ZodIssue & { code: 'invalid_type' }): string {
  if (!('input' in issue)) return issue.message;
  const value = issue.input;
  const found =
    value === undefined
      ? 'nothing'
      : value === null
        ? 'an empty value'
        : Array.isArray(value)
          ? KIND.array
          : (KIND[typeof value] ?? typeof value);
  return `expected ${KIND[issue.expected] ?? issue.expected}, found ${found}`;
}

function loadErrorMessage(err: unknown): string {
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number') {
    return `${REPO_CONFIG_PATH} could not be read from GitHub (HTTP ${status})`;
  }
  const message = err instanceof Error ? err.message : '';
  if (message.includes('invalid YAML')) return `${REPO_CONFIG_PATH} is not valid YAML`;
  if (message.includes('not an object')) return `${REPO_CONFIG_PATH} is not a YAML mapping`;
  if (message.includes('Recursion')) return `${REPO_CONFIG_PATH}: the _extends chain loops`;
  return `${REPO_CONFIG_PATH} could not be loaded`;
}

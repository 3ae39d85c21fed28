import type { CiVerificationRequest } from '../../contract/ci.js';
import type { CheckOutcome } from '../types.js';
import type { CiIdentityEvidence, RunName } from '../ci-identity/identity.js';
import { checkIdentity } from './ci-identity.js';
import { checkBranch, checkRunner, type CiRunFacts } from './ci-run.js';
import { fail, pass, quote, warn } from './outcome.js';

/**
 * CI adapter checks (POST /api/v1/verifications/ci). They judge provenance, not test results:
 * a well-formed commit id, a well-formed repository name and a trigger event the tenant trusts.
 */

export interface CiCheckContext {
  /** Workflow trigger events (GitHub Actions `github.event_name`) the tenant's policy trusts. */
  trustedEvents: readonly string[];
  /** What proves who ran the workflow (none: the identity is self-reported). */
  identity?: CiIdentityEvidence;
  /** The tenant's pinned repositories (`owner/*`, `owner/repo`); undefined: any. */
  allowedRepositories?: readonly string[] | undefined;
  /** The run the request names in x-ci-run (the token must be of it). */
  run?: RunName | undefined;
  /** Given for the hardened profile (ci-provenance-v2): `ci.runner` and `ci.branch` judge it. */
  runFacts?: CiRunFacts | undefined;
}

/** Whether `fullName` is one of `patterns` (`owner/*` or `owner/repo`, case-insensitive). */
export function repositoryAllowed(fullName: string, patterns: readonly string[]): boolean {
  const [owner = '', repo = ''] = fullName.toLowerCase().split('/');
  return patterns.some((pattern) => {
    const [o = '', r = ''] = pattern.toLowerCase().split('/');
    return o === owner && (r === '*' || r === repo);
  });
}

/** A valid policy pattern: `owner/*` or `owner/repo` with GitHub-valid names. */
export function isRepositoryPattern(pattern: string): boolean {
  const [owner = '', repo = '', ...rest] = pattern.split('/');
  if (rest.length > 0 || !GITHUB_OWNER.test(owner)) return false;
  return repo === '*' || (GITHUB_REPO.test(repo) && !RESERVED_REPO_NAMES.has(repo));
}

/**
 * Events whose head commit is already on a branch, or chosen by someone with write access:
 * `push`, `workflow_dispatch`, `schedule`, `release`, and `merge_group` (merge queue commits are
 * built by GitHub from approved pull requests). Not trusted by default: `pull_request` (runs
 * contributor code that nobody has reviewed yet), `pull_request_target` and `workflow_run` (run
 * with the base repository's secrets while processing fork-controlled input: the classic
 * "pwn request" paths) and `repository_dispatch` (arbitrary API payloads).
 */
export const DEFAULT_TRUSTED_EVENTS: readonly string[] = Object.freeze([
  'push',
  'workflow_dispatch',
  'schedule',
  'release',
  'merge_group',
]);

const SHA1_HEX = /^[0-9a-f]{40}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const NULL_OBJECT_ID = /^0+$/;
/**
 * GitHub account names: letters, digits and hyphens, 1-39 characters, no leading or trailing
 * hyphen; Enterprise Managed User accounts add an `_shortcode` suffix.
 */
const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?(?:_[A-Za-z0-9]+)?$/;
/** GitHub repository names: letters, digits, `.`, `-`, `_`, at most 100 characters. */
const GITHUB_REPO = /^[A-Za-z0-9._-]{1,100}$/;
const RESERVED_REPO_NAMES = new Set(['.', '..']);

/** `ci.commit`: `headSha` is a full git object id: 40 (SHA-1) or 64 (SHA-256) lowercase hex. */
export function checkCommit(request: CiVerificationRequest): CheckOutcome {
  const sha = request.headSha;
  if (!SHA1_HEX.test(sha) && !SHA256_HEX.test(sha)) {
    return fail(
      'ci.commit',
      'malformed_commit_id',
      `headSha ${quote(sha)} is not 40 (SHA-1) or 64 (SHA-256) lowercase hex digits`,
    );
  }
  if (NULL_OBJECT_ID.test(sha)) {
    return fail('ci.commit', 'malformed_commit_id', `headSha is the all-zero null object id`);
  }
  const kind = sha.length === 40 ? 'SHA-1' : 'SHA-256';
  return pass('ci.commit', `headSha ${sha} is a well-formed ${kind} commit id`);
}

/**
 * `ci.repository`: `repository.fullName` is `owner/repo` with GitHub-valid names, and one the
 * tenant's policy allows when it pinned any.
 */
export function checkRepository(
  request: CiVerificationRequest,
  ctx: Pick<CiCheckContext, 'allowedRepositories' | 'identity'> = {},
): CheckOutcome {
  const fullName = request.repository.fullName;
  const [owner = '', repo = '', ...rest] = fullName.split('/');
  const valid =
    rest.length === 0 &&
    GITHUB_OWNER.test(owner) &&
    GITHUB_REPO.test(repo) &&
    !RESERVED_REPO_NAMES.has(repo);
  const allowed = ctx.allowedRepositories;
  if (valid && allowed && !repositoryAllowed(fullName, allowed)) {
    return fail(
      'ci.repository',
      'repository_not_allowed',
      `repository ${quote(fullName)} is not among the tenant's repositories (${allowed.join(', ') || 'none'})`,
    );
  }
  if (valid && !allowed && tokenProven(ctx.identity)) {
    return warn(
      'ci.repository',
      'repository_unclaimed',
      `the tenant has no repository policy: nothing ties ${quote(fullName)} to it, whoever's token proves the run (receipts tenants policy --ci-repositories)`,
    );
  }
  return valid
    ? pass('ci.repository', `repository ${quote(fullName)} is in owner/repo form`)
    : fail(
        'ci.repository',
        'malformed_repository',
        `repository ${quote(fullName)} is not owner/repo with valid GitHub account and repository names`,
      );
}

/**
 * A token proves which run it is, not that the run belongs to the tenant holding the API key:
 * the tenant's policy does. The GitHub App's installation is that tie on its own path.
 */
function tokenProven(identity: CiIdentityEvidence | undefined): boolean {
  return identity?.kind === 'oidc-valid' || identity?.kind === 'oidc-replayed';
}

/** `ci.trigger`: `provenance.eventName` is one of the tenant's trusted events. */
export function checkTrigger(request: CiVerificationRequest, ctx: CiCheckContext): CheckOutcome {
  const event = request.provenance.eventName;
  const trusted = ctx.trustedEvents.join(', ') || 'none';
  return ctx.trustedEvents.includes(event)
    ? pass('ci.trigger', `trigger event ${quote(event)} is trusted (${trusted})`)
    : fail(
        'ci.trigger',
        'untrusted_trigger_event',
        `trigger event ${quote(event)} is not among the trusted events (${trusted})`,
      );
}

/**
 * Run the CI checks in their fixed order: ci.commit, ci.repository, ci.trigger, ci.identity, and
 * with run facts (the hardened profile) ci.runner and ci.branch.
 */
export function runCiChecks(
  request: CiVerificationRequest,
  ctx: CiCheckContext = { trustedEvents: DEFAULT_TRUSTED_EVENTS },
): CheckOutcome[] {
  const outcomes = [
    checkCommit(request),
    checkRepository(request, ctx),
    checkTrigger(request, ctx),
    checkIdentity(request, ctx.identity ?? { kind: 'none' }, ctx.run),
  ];
  if (ctx.runFacts) outcomes.push(checkRunner(ctx.runFacts), checkBranch(ctx.runFacts));
  return outcomes;
}

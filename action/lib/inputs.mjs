import { URL } from 'node:url';
import { ActionError } from './errors.mjs';

/** @typedef {Record<string, string | undefined>} Env The process environment. */

/**
 * @typedef {object} CiRequest The §2.13 adapter request body.
 * @property {string} externalId
 * @property {string} headSha
 * @property {{ kind: string, summary: string }} subject
 * @property {{ fullName: string, htmlUrl: string }} repository
 * @property {{ eventName: string }} provenance
 * @property {string} detailsUrl
 */

/** @typedef {keyof typeof FAIL_ON} FailOn */

/**
 * @typedef {object} Inputs The validated inputs.
 * @property {string} apiKey
 * @property {string} apiUrl Base URL, no trailing slash.
 * @property {FailOn} failOn
 * @property {number} timeoutMs
 * @property {number} maxAttempts
 * @property {string} oidcAudience The audience of the OIDC token requested from the runner.
 * @property {string} policyFile A `.github/receipts.yml` to check first, or '' for none.
 * @property {CiRequest} request
 */

/**
 * Receipt statuses at or above which the step fails, per `fail-on`.
 *
 * @type {Readonly<Record<'failure' | 'compliance_gap' | 'never', readonly string[]>>}
 */
export const FAIL_ON = Object.freeze({
  failure: ['failure', 'revoked'],
  compliance_gap: ['compliance_gap', 'failure', 'revoked'],
  never: [],
});

const MAX_ATTEMPTS_LIMIT = 10;

/**
 * The action's inputs (INPUT_* variables set by action.yml) and the runner's GITHUB_* variables,
 * validated, plus the §2.13 adapter request built from them.
 *
 * @param {Env} env
 * @returns {Inputs}
 */
export function readInputs(env) {
  const apiKey = required(env, 'INPUT_API_KEY', 'api-key');
  const apiUrl = baseUrl(required(env, 'INPUT_API_URL', 'api-url'));
  const failOn = env.INPUT_FAIL_ON?.trim() || 'failure';
  if (!Object.hasOwn(FAIL_ON, failOn)) {
    throw new ActionError(`fail-on must be one of ${Object.keys(FAIL_ON).join(', ')}`);
  }
  const timeoutSeconds = number(env.INPUT_TIMEOUT_SECONDS, 'timeout-seconds', 30, 1, 600);
  const maxAttempts = number(env.INPUT_MAX_ATTEMPTS, 'max-attempts', 5, 1, MAX_ATTEMPTS_LIMIT);
  return {
    apiKey,
    apiUrl,
    failOn: /** @type {FailOn} */ (failOn),
    timeoutMs: timeoutSeconds * 1000,
    maxAttempts: Math.floor(maxAttempts),
    oidcAudience: env.INPUT_OIDC_AUDIENCE?.trim() || apiUrl,
    policyFile: env.INPUT_POLICY_FILE?.trim() ?? '',
    request: buildRequest(env),
  };
}

/**
 * The adapter request. externalId is `<owner/repo>/<run id>/<run attempt>` unless the
 * `external-id` input overrides it: the service is idempotent per externalId, so a re-run attempt
 * gets its own receipt while a retried call within one attempt returns the same one.
 *
 * @param {Env} env
 * @returns {CiRequest}
 */
export function buildRequest(env) {
  const repository = runner(env, 'GITHUB_REPOSITORY');
  const runId = runner(env, 'GITHUB_RUN_ID');
  const attempt = env.GITHUB_RUN_ATTEMPT?.trim() || '1';
  const server = (env.GITHUB_SERVER_URL?.trim() || 'https://github.com').replace(/\/+$/, '');
  const workflow = env.GITHUB_WORKFLOW?.trim() || 'workflow';
  const detailsUrl =
    env.INPUT_DETAILS_URL?.trim() || `${server}/${repository}/actions/runs/${runId}`;
  return {
    externalId: env.INPUT_EXTERNAL_ID?.trim() || `${repository}/${runId}/${attempt}`,
    headSha: runner(env, 'GITHUB_SHA'),
    subject: {
      kind: env.INPUT_SUBJECT_KIND?.trim() || 'workflow_run',
      summary: env.INPUT_SUMMARY?.trim() || `${workflow} run ${runId}`,
    },
    repository: { fullName: repository, htmlUrl: `${server}/${repository}` },
    provenance: { eventName: runner(env, 'GITHUB_EVENT_NAME') },
    detailsUrl: httpUrl(detailsUrl, 'details-url').href,
  };
}

/**
 * The service base URL without a trailing slash (a trailing /api/v1 is tolerated).
 *
 * @param {string} value
 * @returns {string}
 */
function baseUrl(value) {
  const url = httpUrl(value, 'api-url');
  return url.href.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

/**
 * @param {string} value
 * @param {string} name The input's name, for the error.
 * @returns {URL}
 */
function httpUrl(value, name) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new ActionError(`${name} is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ActionError(`${name} must be an http(s) URL`);
  }
  return url;
}

/**
 * @param {Env} env
 * @param {string} variable
 * @param {string} name The input's name, for the error.
 * @returns {string}
 */
function required(env, variable, name) {
  const value = env[variable]?.trim();
  if (!value) throw new ActionError(`input ${name} is required (${variable} is empty)`);
  return value;
}

/**
 * @param {Env} env
 * @param {string} variable
 * @returns {string}
 */
function runner(env, variable) {
  const value = env[variable]?.trim();
  if (!value) {
    throw new ActionError(`${variable} is not set: run this action inside a GitHub Actions job`);
  }
  return value;
}

/**
 * @param {string | undefined} raw
 * @param {string} name The input's name, for the error.
 * @param {number} fallback When the input is empty.
 * @param {number} min
 * @param {number} max
 * @returns {number}
 */
function number(raw, name, fallback, min, max) {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ActionError(`${name} must be a number from ${min} to ${max}`);
  }
  return value;
}

/* global fetch, AbortSignal -- Node >= 20 built-ins */
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { parseRetryAfter, retryDelayMs } from './backoff.mjs';
import { ActionError } from './errors.mjs';

/** Statuses worth another attempt: rate limiting and a dependency or gateway being unavailable. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const MAX_ERROR_DETAILS = 1000;

/**
 * @typedef {object} HttpAnswer One answer of the service.
 * @property {number} status
 * @property {string | null} retryAfter The Retry-After header, if any.
 * @property {string} text The body as text.
 * @property {any} json The body parsed as JSON, or undefined when it is not JSON.
 */

/**
 * @typedef {object} PostOptions
 * @property {string} url
 * @property {string} apiKey
 * @property {unknown} body Sent as JSON.
 * @property {number} timeoutMs Bound on each attempt.
 * @property {number} maxAttempts Attempts in all, the first included.
 * @property {(line: string) => void} log Where retries are reported.
 * @property {string} [oidcToken] The run's OIDC token, sent as x-ci-oidc-token.
 * @property {string} [subjectDigest] sha256:<hex> of the artifact, sent as x-ci-subject-digest.
 * @property {string} [run] `<run id>/<run attempt>`, sent as x-ci-run: the run the token must be of.
 */

/**
 * POST `body` as JSON to `url` and return `{ status, json }` for the first answer that is not
 * retryable. 429/502/503/504, network errors and timeouts are retried (the adapter is idempotent
 * per externalId, so a repeated POST cannot issue a second receipt) up to `maxAttempts` in all,
 * waiting per Retry-After or exponential backoff. Each attempt is bounded by `timeoutMs`.
 *
 * @param {PostOptions} options
 * @returns {Promise<HttpAnswer>}
 */
export async function postWithRetry(options) {
  const { url, apiKey, body, timeoutMs, maxAttempts, log } = options;
  /** @type {Record<string, string>} */
  const extra = {};
  if (options.oidcToken) extra['x-ci-oidc-token'] = options.oidcToken;
  if (options.subjectDigest) extra['x-ci-subject-digest'] = options.subjectDigest;
  if (options.run) extra['x-ci-run'] = options.run;
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(url, apiKey, body, timeoutMs, extra);
    if (outcome.response && !RETRYABLE_STATUSES.has(outcome.response.status)) {
      return outcome.response;
    }
    const problem = outcome.problem ?? describeHttpError(outcome.response);
    if (attempt >= maxAttempts) {
      throw new ActionError(`${problem}; gave up after ${attempt} attempt(s)`);
    }
    const retryAfter = parseRetryAfter(outcome.response?.retryAfter);
    const waitMs = retryDelayMs(attempt, retryAfter);
    const why = retryAfter === undefined ? 'backoff' : 'Retry-After';
    log(
      `${problem}; retrying in ${(waitMs / 1000).toFixed(1)} s (${why}), ` +
        `attempt ${attempt + 1} of ${maxAttempts}`,
    );
    await sleep(waitMs);
  }
}

/**
 * One request: `{ response }` or `{ problem }`.
 *
 * @param {string} url
 * @param {string} apiKey
 * @param {unknown} body
 * @param {number} timeoutMs
 * @param {Record<string, string>} extra Further request headers.
 * @returns {Promise<{ response: HttpAnswer, problem?: undefined } | { response?: undefined, problem: string }>}
 */
async function attemptOnce(url, apiKey, body, timeoutMs, extra) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-api-key': apiKey,
        ...extra,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return {
      response: {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        text,
        json: parseJson(text),
      },
    };
  } catch (err) {
    return { problem: describeNetworkError(err, url, timeoutMs) };
  }
}

/**
 * A human sentence for a non-2xx answer, from the ErrorResponse `error`/`message`/`details`.
 *
 * @param {HttpAnswer} response
 * @returns {string}
 */
export function describeHttpError(response) {
  const { status, json, text } = response;
  if (json && typeof json.error === 'string') {
    const message = typeof json.message === 'string' ? `: ${json.message}` : '';
    const details =
      json.details === undefined ? '' : ` (details: ${truncate(JSON.stringify(json.details))})`;
    return `receipt service answered HTTP ${status} ${json.error}${message}${details}`;
  }
  const snippet = text.trim() ? `: ${truncate(text.trim())}` : '';
  return `receipt service answered HTTP ${status}${snippet}`;
}

/**
 * @param {any} err What fetch threw.
 * @param {string} url
 * @param {number} timeoutMs
 * @returns {string}
 */
function describeNetworkError(err, url, timeoutMs) {
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
    return `no answer from ${url} within ${timeoutMs / 1000} s (timeout-seconds)`;
  }
  const cause = err?.cause;
  const reason = cause?.message || cause?.code || err?.message || String(err);
  return `could not reach the receipt service at ${new URL(url).origin} (${reason})`;
}

/**
 * @param {string} text
 * @returns {any}
 */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * @param {string} text
 * @returns {string}
 */
function truncate(text) {
  return text.length > MAX_ERROR_DETAILS ? `${text.slice(0, MAX_ERROR_DETAILS)}…` : text;
}

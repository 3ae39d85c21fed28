/** Pure retry timing: how long to wait before the next attempt. No I/O, so it is unit-tested. */

/** The longest single wait, whatever the server asks for in Retry-After. */
export const MAX_WAIT_MS = 60_000;
/** The first backoff step when the server gives no Retry-After; doubled per failed attempt. */
export const BASE_DELAY_MS = 1_000;

/**
 * Retry-After (RFC 9110 §10.2.3) as milliseconds from `now`: either delay-seconds or an
 * HTTP-date. Undefined when the header is absent or unparseable; a date in the past gives 0.
 *
 * @param {string | null | undefined} header
 * @param {number} [now]
 * @returns {number | undefined}
 */
export function parseRetryAfter(header, now = Date.now()) {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The wait after failed attempt number `attempt` (1-based): the server's Retry-After when it
 * sent one, else exponential backoff (1 s, 2 s, 4 s, ...) with up to 20 % jitter so that many
 * workflow runs do not retry in lockstep. Always capped at MAX_WAIT_MS.
 *
 * @param {number} attempt
 * @param {number | undefined} retryAfterMs
 * @param {() => number} [random]
 * @returns {number}
 */
export function retryDelayMs(attempt, retryAfterMs, random = Math.random) {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_WAIT_MS);
  const exponential = BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1);
  return Math.min(Math.round(exponential * (1 + 0.2 * random())), MAX_WAIT_MS);
}

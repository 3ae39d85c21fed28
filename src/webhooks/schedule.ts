/**
 * When a failed delivery is tried again: the Standard Webhooks specification's example schedule,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after each failed attempt (ten attempts
 * over about 75 hours), each delay stretched by up to 10 % of random jitter so that receivers
 * coming back are not all tried at once. A 429 or 503 answer's `Retry-After` may put the next
 * attempt later, never earlier, and at most `MAX_RETRY_AFTER_MS` after the failed one
 * (docs/decisions/0086-retry-after-within-the-schedule-s-bounds.md).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

/** Attempts in all: the first, then one after each delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The longest a `Retry-After` may put off the next attempt: the schedule's longest delay. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** The answers whose `Retry-After` is read (RFC 9110 §10.2.3: with 503, and 429 by RFC 6585). */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The longest `Retry-After` value read; a longer one is not a date or a number of seconds. */
const MAX_RETRY_AFTER_LENGTH = 64;

/**
 * The wait a `Retry-After` value asks for, in ms from `now`: delay-seconds or an HTTP-date (a
 * date already past asks for none); undefined when the value is neither.
 */
export function retryAfterMs(value: string | undefined, now: Date): number | undefined {
  if (value === undefined || value.length > MAX_RETRY_AFTER_LENGTH) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  // an HTTP-date names its day and its zone (IMF-fixdate, RFC 850 or asctime)
  if (!/^[A-Za-z]{3}/.test(text) || !/\d{2}:\d{2}:\d{2}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * The time of the next attempt after `attempts` failed ones (counting the one just made), or
 * null when none is left. `jitter` is in [0, 1); `askedMs` is the wait a `Retry-After` asked for,
 * honoured when it is longer than the schedule's delay, up to MAX_RETRY_AFTER_MS.
 */
export function nextAttemptAt(
  attempts: number,
  now: Date,
  jitter: number,
  askedMs?: number,
): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  const scheduled = Math.round(delay * (1 + 0.1 * jitter));
  const asked = Math.min(askedMs ?? 0, MAX_RETRY_AFTER_MS);
  return new Date(now.getTime() + Math.max(scheduled, asked));
}

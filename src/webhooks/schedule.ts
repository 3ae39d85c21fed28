/**
 * When a failed delivery is tried again: the Standard Webhooks specification's example schedule,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after each failed attempt (ten attempts
 * over about 75 hours), each delay stretched by up to 10 % of random jitter so that receivers
 * coming back are not all tried at once.
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

/**
 * The time of the next attempt after `attempts` failed ones (counting the one just made), or
 * null when none is left. `jitter` is in [0, 1).
 */
export function nextAttemptAt(attempts: number, now: Date, jitter: number): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (1 + 0.1 * jitter)));
}

import { describe, expect, it } from 'vitest';
import {
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  RETRY_DELAYS_MS,
  nextAttemptAt,
  retryAfterMs,
} from '../../src/webhooks/schedule.js';

/** The retry schedule and how a Retry-After answer moves it (pure functions, fixed clock). */

const NOW = new Date('2026-11-24T19:47:10.000Z');
const HOUR = 3_600_000;
const after = (at: Date | null) => (at ? at.getTime() - NOW.getTime() : null);

describe('the schedule', () => {
  it("is the specification's example: 5 s to 24 h apart, ten attempts over about 75 hours", () => {
    expect(MAX_ATTEMPTS).toBe(10);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBe(75 * HOUR + 35 * 60_000 + 5_000);
    for (let n = 1; n < MAX_ATTEMPTS; n++)
      expect(after(nextAttemptAt(n, NOW, 0)), `after attempt ${n}`).toBe(RETRY_DELAYS_MS[n - 1]);
    expect(nextAttemptAt(MAX_ATTEMPTS, NOW, 0)).toBeNull();
  });

  it('stretches each delay by at most 10 % of jitter', () => {
    expect(after(nextAttemptAt(1, NOW, 0.999_999))).toBe(5_500);
    expect(after(nextAttemptAt(9, NOW, 0.5))).toBe(24 * HOUR * 1.05);
  });
});

describe('a Retry-After', () => {
  it('is read as delay-seconds or as an HTTP-date', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('Tue, 24 Nov 2026 20:47:10 GMT', NOW)).toBe(HOUR);
    // a date already past asks for no wait
    expect(retryAfterMs('Tue, 24 Nov 2026 18:00:00 GMT', NOW)).toBe(0);
  });

  it('that is neither, or absurdly long, is ignored', () => {
    for (const value of [
      undefined,
      '',
      '-5',
      '1.5',
      '5 minutes',
      'soon',
      'Infinity',
      '2026-11-24',
      '9'.repeat(65),
    ])
      expect(retryAfterMs(value, NOW), String(value)).toBeUndefined();
  });

  it('puts the next attempt later than the schedule, never earlier', () => {
    // asked for an hour after the first failure: an hour, not 5 s
    expect(after(nextAttemptAt(1, NOW, 0, HOUR))).toBe(HOUR);
    // asked for 10 s after the fourth failure: the schedule's 2 h stand
    expect(after(nextAttemptAt(4, NOW, 0, 10_000))).toBe(2 * HOUR);
    expect(after(nextAttemptAt(1, NOW, 0, 0))).toBe(5_000);
  });

  it('is capped at the longest delay of the schedule, and adds no attempt', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(Math.max(...RETRY_DELAYS_MS));
    expect(after(nextAttemptAt(1, NOW, 0, 365 * 24 * HOUR))).toBe(MAX_RETRY_AFTER_MS);
    expect(after(nextAttemptAt(2, NOW, 0, retryAfterMs('9'.repeat(64), NOW)))).toBe(
      MAX_RETRY_AFTER_MS,
    );
    expect(nextAttemptAt(MAX_ATTEMPTS, NOW, 0, HOUR)).toBeNull();
  });
});

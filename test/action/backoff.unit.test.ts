import { describe, expect, it } from 'vitest';
import {
  BASE_DELAY_MS,
  MAX_WAIT_MS,
  parseRetryAfter,
  retryDelayMs,
} from '../../action/lib/backoff.mjs';

describe('action retry timing', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('1', now)).toBe(1_000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });

  it('prefers Retry-After, capped', () => {
    expect(retryDelayMs(1, 2_000)).toBe(2_000);
    expect(retryDelayMs(3, 0)).toBe(0);
    expect(retryDelayMs(1, 3_600_000)).toBe(MAX_WAIT_MS);
  });

  it('backs off exponentially with bounded jitter, capped', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, undefined, () => 0))).toEqual(
      [1, 2, 4, 8].map((k) => k * BASE_DELAY_MS),
    );
    expect(retryDelayMs(2, undefined, () => 1)).toBe(2.4 * BASE_DELAY_MS);
    expect(retryDelayMs(20, undefined, () => 0.5)).toBe(MAX_WAIT_MS);
  });
});

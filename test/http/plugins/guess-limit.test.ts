import { describe, expect, it } from 'vitest';
import { GuessLimit, sameSecret } from '../../../src/http/plugins/guess-limit.js';

describe('sameSecret', () => {
  it('compares whole secrets of any length', () => {
    expect(sameSecret('Bearer abc', 'Bearer abc')).toBe(true);
    expect(sameSecret('Bearer ab', 'Bearer abc')).toBe(false);
    expect(sameSecret('', 'Bearer abc')).toBe(false);
  });
});

describe('GuessLimit', () => {
  it('counts failures per address in a window, then forgets them', () => {
    let now = 0;
    const limit = new GuessLimit(2, 1_000, 10, () => now);
    limit.fail('a');
    expect(limit.retryAfter('a')).toBe(0);
    limit.fail('a');
    expect(limit.retryAfter('a')).toBe(1);
    expect(limit.retryAfter('b')).toBe(0);
    now = 1_000;
    expect(limit.retryAfter('a')).toBe(0);
  });
});

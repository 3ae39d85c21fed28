import { describe, expect, it } from 'vitest';
import { MAX_PREFER_WAIT_SECONDS, preferencesOf, preferredWait } from '../../src/http/prefer.js';

describe('the Prefer wait preference (RFC 7240)', () => {
  it('reads wait=N among other preferences, case-insensitively, with parameters and quotes', () => {
    expect(preferredWait('wait=5')).toBe(5);
    expect(preferredWait('WAIT = 3')).toBe(3);
    expect(preferredWait('respond-async, wait=2')).toBe(2);
    expect(preferredWait('return=minimal; foo="a,b;c", wait="4"')).toBe(4);
    expect(preferredWait(['handling=lenient', 'wait=7; x=1'])).toBe(7);
  });

  it('caps the wait', () => {
    expect(MAX_PREFER_WAIT_SECONDS).toBe(10);
    expect(preferredWait('wait=11')).toBe(10);
    expect(preferredWait('wait=999999999')).toBe(10);
  });

  it('only the first wait counts', () => {
    expect(preferredWait('wait=2, wait=9')).toBe(2);
    expect(preferredWait('wait=abc, wait=9')).toBeUndefined();
  });

  it('ignores what it cannot read: absent, malformed, zero, negative, fractional, huge', () => {
    for (const header of [
      undefined,
      '',
      'wait',
      'wait=',
      'wait=0',
      'wait=-1',
      'wait=1.5',
      'wait=5x',
      'wait=1e3',
      'wait=9999999999',
      'respond-async',
      'w@it=5',
      '"wait=5"',
      'foo="wait=5, bar"',
    ])
      expect(preferredWait(header), String(header)).toBeUndefined();
  });

  it('reads the witnessed token beside wait, in any order and case; only the first counts', () => {
    expect(preferencesOf('wait=3, witnessed')).toEqual({ wait: 3, witnessed: true });
    expect(preferencesOf('Witnessed, WAIT=2')).toEqual({ wait: 2, witnessed: true });
    expect(preferencesOf(['respond-async', 'witnessed=true; x=1', 'wait=4'])).toEqual({
      wait: 4,
      witnessed: true,
    });
    expect(preferencesOf('wait=3, witnessed=false, witnessed')).toEqual({
      wait: 3,
      witnessed: false,
    });
    for (const header of [
      undefined,
      'wait=3',
      'wait=3, witness',
      'wait=3; witnessed',
      'x="witnessed"',
    ])
      expect(preferencesOf(header).witnessed, String(header)).toBe(false);
    // witnessed alone asks for no wait
    expect(preferencesOf('witnessed')).toEqual({ wait: undefined, witnessed: true });
  });
});

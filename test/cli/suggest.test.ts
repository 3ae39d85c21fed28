import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from '../../src/cli/suggest.js';

/** "Did you mean": the nearest command or flag to a typo, and nothing for a word far from all. */
describe('nearest valid word', () => {
  it('counts insertions, deletions, substitutions and transpositions as one edit each', () => {
    expect(editDistance('verify', 'verify')).toBe(0);
    expect(editDistance('verfy', 'verify')).toBe(1);
    expect(editDistance('vreify', 'verify')).toBe(1);
    expect(editDistance('verifyy', 'verify')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests the nearest candidate within a third of the word', () => {
    const commands = ['keys', 'issuers', 'notaries', 'verify', 'demo', 'init', 'migrate'];
    expect(nearest('verfy', commands)).toBe('verify');
    expect(nearest('isuers', commands)).toBe('issuers');
    expect(nearest('tenat', ['tenant', 'name', 'scopes', 'json'])).toBe('tenant');
    expect(nearest('vkey-fle', ['vkey', 'vkey-file', 'state'])).toBe('vkey-file');
    expect(nearest('tenan', ['tenant'])).toBe('tenant'); // a prefix
  });

  it('suggests nothing for a word far from every candidate', () => {
    expect(nearest('banana', ['keys', 'issuers', 'verify'])).toBeUndefined();
    expect(nearest('x', ['keys', 'json'])).toBeUndefined();
  });

  it('is bounded: a very long word is cut before any distance is computed', () => {
    const started = performance.now();
    expect(nearest('v'.repeat(1_000_000), ['verify', 'keys'])).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(200);
  });
});

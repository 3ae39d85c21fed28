import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  STRONG_MATCH_THRESHOLD,
  WEAK_MATCH_THRESHOLD,
  matchStrength,
} from '../../src/screening/lists.js';
import { nameTokens } from '../../src/screening/normalise.js';
import {
  jaroWinkler,
  levenshteinSimilarity,
  MAX_ALIGNED_TOKENS,
  maxNameSimilarity,
  nameSimilarity,
} from '../../src/screening/similarity.js';

const score = (a: string, b: string) => nameSimilarity(nameTokens(a), nameTokens(b));

describe('jaroWinkler', () => {
  it('matches the published reference values', () => {
    // Winkler (1990) examples, also used by the Apache Commons Text tests.
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 3);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.813, 3);
  });

  it('is 1 for equal strings and 0 for strings without common characters', () => {
    expect(jaroWinkler('same', 'same')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
  });
});

describe('levenshteinSimilarity', () => {
  it('is 1 - distance / longer length', () => {
    expect(levenshteinSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 10);
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinSimilarity('abc', '')).toBe(0);
  });
});

describe('nameSimilarity', () => {
  it('scores names equal after normalisation as exactly 1', () => {
    expect(score('DOE, John', 'john doe')).toBe(1);
    expect(score('José Álvarez', 'ALVAREZ, Jose')).toBe(1);
  });

  it.each([
    ['Jon Doe', 'John Doe'],
    ['Mohamed Salah Example', 'Mohammed Salah Example'],
    ['Ivan Petrova', 'Ivan Petrov'],
    ['Abdulrahman Fictus', 'Abdul Rahman Fictus'],
    ['FICTUS, Abdul Rahman', 'Abdulrahman Fictus'],
  ])('treats spelling and spacing variants %j / %j as strong', (a, b) => {
    expect(score(a, b)).toBeGreaterThanOrEqual(STRONG_MATCH_THRESHOLD);
  });

  it('treats one extra or missing token as weak, not strong', () => {
    const s = score('John Doe', 'John Michael Doe');
    expect(s).toBeGreaterThanOrEqual(WEAK_MATCH_THRESHOLD);
    expect(s).toBeLessThan(STRONG_MATCH_THRESHOLD);
    expect(matchStrength(s)).toBe('weak');
  });

  it.each([
    ['Jane Doe', 'John Doe'],
    ['John Smith', 'John Doe'],
    ['Maria Garcia', 'Mario Garza Lopez'],
    ['Quentin Example Testman', 'Quincy Sample Trotman'],
  ])('does not match near-misses %j / %j', (a, b) => {
    expect(score(a, b)).toBeLessThan(WEAK_MATCH_THRESHOLD);
    expect(matchStrength(score(a, b))).toBeUndefined();
  });

  it('scores 0 when either name has no tokens', () => {
    expect(score('', 'John Doe')).toBe(0);
    expect(score('!!', '??')).toBe(0);
  });

  it('is symmetric, within 0..1 and never above the token-count bound', () => {
    const name = fc.array(fc.stringMatching(/^[a-e]{1,6}$/), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(name, name, (a, b) => {
        const s = nameSimilarity([...a].sort(), [...b].sort());
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(maxNameSimilarity(a.length, b.length) + 1e-12);
        expect(nameSimilarity([...b].sort(), [...a].sort())).toBeCloseTo(s, 12);
      }),
      { numRuns: 500 },
    );
  });

  it('bounds what token counts allow', () => {
    expect(maxNameSimilarity(2, 2)).toBe(1);
    expect(maxNameSimilarity(2, 4)).toBe(1);
    expect(maxNameSimilarity(1, 3)).toBe(0.75);
    expect(maxNameSimilarity(0, 3)).toBe(0);
  });

  it('aligns a bounded number of tokens: a 500,000-token name costs what a short one does', () => {
    // Aligning every pair of joined tokens was quadratic: 16,000 tokens blocked for seconds.
    const huge = Array.from({ length: 500_000 }, (_, i) => ['john', 'doe', 'jon'][i % 3] ?? '');
    const s = nameSimilarity(huge, ['john', 'doe']);
    expect(s).toBeGreaterThan(0);
    expect(s).toBeLessThanOrEqual(maxNameSimilarity(huge.length, 2));
    // Names up to the bound are aligned in full, as before.
    const long = Array.from({ length: MAX_ALIGNED_TOKENS }, (_, i) => `tok${i}`);
    expect(nameSimilarity(long, [...long].reverse())).toBe(1);
  });
});

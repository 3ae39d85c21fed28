import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameTokens, normaliseName } from '../../src/screening/normalise.js';

describe('normaliseName', () => {
  it.each([
    ['DOE, John', 'doe john'],
    ['john   doe', 'doe john'],
    ['José Ramón ÁLVAREZ', 'alvarez jose ramon'],
    ['Straße Œuvre Ørsted Łukasz', 'lukasz oeuvre orsted strasse'],
    ["O'Brien, Seán", 'obrien sean'],
    ['O’Brien', 'obrien'],
    ['Jean-Luc Picard', 'jean luc picard'],
    ['ﬁnn (the 2nd)', '2nd finn the'],
    ['Дмитрий Сэмпленко', 'дмитрии сэмпленко'],
    ['  ', ''],
    ['!!', ''],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseName(input)).toBe(expected);
  });

  it('makes word order, case and punctuation irrelevant', () => {
    expect(normaliseName('TESTMAN, Quentin Example')).toBe(
      normaliseName('quentin example testman'),
    );
  });

  it('returns sorted tokens without empties and is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const tokens = nameTokens(name);
        expect(tokens).toEqual([...tokens].sort());
        expect(tokens.every((t) => t.length > 0 && !t.includes(' '))).toBe(true);
        expect(normaliseName(normaliseName(name))).toBe(normaliseName(name));
      }),
    );
  });
});

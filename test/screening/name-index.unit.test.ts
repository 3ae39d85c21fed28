import { describe, expect, it } from 'vitest';
import { NameIndex } from '../../src/screening/name-index.js';
import { WEAK_MATCH_THRESHOLD } from '../../src/screening/lists.js';
import { nameTokens } from '../../src/screening/normalise.js';
import { maxNameSimilarity, nameSimilarity } from '../../src/screening/similarity.js';
import { prng } from '../helpers/prng.js';

/**
 * The index is exact: every name a full scan finds at or above a threshold is among its
 * candidates, on names built to stress each way two names align (typos, transpositions, a name
 * written as one word or two, dropped and extra tokens, short tokens).
 */

const SYLLABLES = [
  'a',
  'al',
  'li',
  'hua',
  'mo',
  'ham',
  'med',
  'ab',
  'dul',
  'rah',
  'man',
  'jo',
  'hn',
  'se',
  'ra',
  'ko',
  'vic',
  'ng',
  'o',
  'zh',
  'ei',
  'ann',
  'el',
];

function generator(seed: number) {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const word = () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(SYLLABLES)).join('');
  const name = () => Array.from({ length: 1 + Math.floor(random() * 4) }, word);
  const typo = (w: string) => {
    const at = Math.floor(random() * (w.length + 1));
    const ch = pick([...'aeiourstnlmk']);
    const kind = random();
    if (kind < 0.33) return w.slice(0, at) + ch + w.slice(at);
    if (kind < 0.66) return w.slice(0, at) + w.slice(at + 1);
    return w.length > 1 ? w.slice(0, at) + (w[at + 1] ?? '') + (w[at] ?? '') + w.slice(at + 2) : w;
  };
  /** A variant of a listed name, as a subject might be written. */
  const variant = (tokens: string[]): string[] => {
    const t = [...tokens];
    const kind = random();
    const i = Math.floor(random() * t.length);
    if (kind < 0.25) t[i] = typo(t[i]!);
    else if (kind < 0.4 && t.length > 1) t.splice(i, 2, `${t[i]}${t[i + 1] ?? ''}`);
    else if (kind < 0.55 && t[i]!.length > 1) {
      // any cut, the last position included (a listed name may end in a one-letter token)
      const cut = 1 + Math.floor(random() * (t[i]!.length - 1));
      t.splice(i, 1, t[i]!.slice(0, cut), t[i]!.slice(cut));
    } else if (kind < 0.7 && t.length > 1) t.splice(i, 1);
    else if (kind < 0.85) t.push(word());
    else t.reverse();
    return t;
  };
  return { name, variant, random };
}

function scanMatches(names: string[][], subject: string[], threshold: number): number[] {
  const out: number[] = [];
  names.forEach((tokens, id) => {
    if (maxNameSimilarity(subject.length, tokens.length) < threshold) return;
    if (nameSimilarity(subject, tokens) >= threshold) out.push(id);
  });
  return out;
}

describe('NameIndex', () => {
  it('keeps every name the full scan matches (weak and lower thresholds)', () => {
    const g = generator(20261124);
    const names = Array.from({ length: 1_200 }, () => nameTokens(g.name().join(' ')));
    const index = new NameIndex(names);
    let matched = 0;
    for (let n = 0; n < 500; n += 1) {
      const source = names[Math.floor(g.random() * names.length)]!;
      const subject = nameTokens((n % 5 === 0 ? g.name() : g.variant(source)).join(' '));
      for (const threshold of [WEAK_MATCH_THRESHOLD, 0.6]) {
        const expected = scanMatches(names, subject, threshold);
        const candidates = new Set(index.candidates(subject, threshold));
        const missed = expected.filter((id) => !candidates.has(id));
        expect(missed, `${subject.join(' ')} @ ${threshold}`).toEqual([]);
        matched += expected.length;
      }
    }
    expect(matched).toBeGreaterThan(500); // the generated subjects do match
  });

  it('finds the alignments a token filter would miss', () => {
    const cases: [string, string][] = [
      ['Li Hua', 'Lihua'], // a listed name in two tokens, the subject in one
      ['Lihua', 'Li Hua'],
      ['Abdul Rahman', 'Abdulrahman'],
      ['John Smith', 'Ohn Smith'], // Jaro-Winkler aligns tokens that start differently
      ['Mohammed Al Rashid', 'Mohamed Alrashid'],
      // a short subject token (no edit allowed) joined from a listed token and a last letter:
      // the join's first part is the subject token without its last position
      ['Kwan O', 'Kwano'],
      ['Li A', 'Lia'],
    ];
    for (const [listed, subject] of cases) {
      const names = [nameTokens(listed), nameTokens('Unrelated Person')];
      const s = nameTokens(subject);
      expect(nameSimilarity(s, names[0]!), listed).toBeGreaterThanOrEqual(WEAK_MATCH_THRESHOLD);
      expect(new NameIndex(names).candidates(s, WEAK_MATCH_THRESHOLD), listed).toEqual([0]);
    }
  });

  it('leaves out names that share nothing with the subject', () => {
    const index = new NameIndex([nameTokens('Alice Ordinary'), nameTokens('Zed Quorn')]);
    expect(index.candidates(nameTokens('Alice Ordinary'), WEAK_MATCH_THRESHOLD)).toEqual([0]);
    expect(index.candidates([], WEAK_MATCH_THRESHOLD)).toEqual([]);
    expect(index.vocabularySize).toBe(4);
  });
});

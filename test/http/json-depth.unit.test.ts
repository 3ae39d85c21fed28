import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonDepthScanner } from '../../src/http/json-depth.js';

/** Whether the whole text `text` opens more than `limit` arrays or objects inside one another. */
const exceedsJsonDepth = (text: string, limit: number): boolean =>
  new JsonDepthScanner(limit).feed(Buffer.from(text, 'utf8'));

/** The depth of a parsed value, by walking it: the reference the scanner must agree with. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** JSON whose strings are full of brackets, quotes and backslashes. */
const trickyString = fc.string({
  unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', '\u00e9', '\u{1f600}'),
  maxLength: 12,
});
const value = fc.jsonValue({ maxDepth: 8, stringUnit: 'grapheme' }).chain((v) =>
  fc.oneof(
    fc.constant(v),
    trickyString.map((s) => [s, v, { [s]: v }]),
  ),
);

/** `text` as UTF-8 cut into pieces at the given offsets (any byte, mid-character included). */
function pieces(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...at, bytes.length].map((end, i) => bytes.subarray(at[i - 1] ?? 0, end));
}

describe('JsonDepthScanner', () => {
  it('agrees with the depth of the parsed value, however the bytes are cut', () => {
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { maxLength: 6 }), (v, cuts) => {
        const text = JSON.stringify(v);
        const depth = depthOf(JSON.parse(text));
        for (const limit of [Math.max(0, depth - 1), depth]) {
          const scanner = new JsonDepthScanner(limit);
          const over = pieces(text, cuts).some((piece) => scanner.feed(piece));
          expect(over, `${text} limit ${limit}`).toBe(depth > limit);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('stops at the first bracket over the limit, without reading the rest', () => {
    const nested = Buffer.from('['.repeat(10_000_000));
    const started = performance.now();
    expect(new JsonDepthScanner(64).feed(nested)).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
    expect(exceedsJsonDepth('[[["\\\\"]]]', 3)).toBe(false);
    expect(exceedsJsonDepth('[[["\\\\"],[[]]]]', 3)).toBe(true);
  });

  it('closing brackets before any opening do not buy depth', () => {
    expect(exceedsJsonDepth(`${']'.repeat(100)}${'['.repeat(65)}`, 64)).toBe(true);
  });
});

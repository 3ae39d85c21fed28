import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unstorableBodyPath, unstorableStringPath } from '../../../src/http/plugins/json-body.js';

/** Any UTF-16 code unit, weighted towards the ones the store refuses and JSON escapes. */
const codeUnit = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '\udfff', '\\', '"', 'u', '\n', '\u00e9'),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.string({ unit: 'grapheme', maxLength: 2 }),
);
const value = fc.jsonValue({ stringUnit: codeUnit, maxDepth: 3 });

/**
 * JSON as an encoder that escapes only what JSON requires writes it: a lone surrogate stays raw
 * in the text (JSON.stringify would write it as a \u escape).
 */
function minimallyEscaped(v: unknown): string {
  if (typeof v === 'string') {
    let escaped = '';
    for (const c of v) {
      const code = c.charCodeAt(0);
      if (c === '"' || c === '\\') escaped += `\\${c}`;
      else if (code < 0x20) escaped += `\\u${code.toString(16).padStart(4, '0')}`;
      else escaped += c;
    }
    return `"${escaped}"`;
  }
  if (Array.isArray(v)) return `[${v.map(minimallyEscaped).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const members = Object.entries(v).map(
      ([k, item]) => `${minimallyEscaped(k)}:${minimallyEscaped(item)}`,
    );
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(v);
}

const fromText = (text: string) => unstorableBodyPath(text, JSON.parse(text));

describe('unstorableBodyPath: the walk is skipped only where it cannot find anything', () => {
  it('finds what the full walk finds, whichever way the text was escaped', () => {
    fc.assert(
      fc.property(value, (v) => {
        for (const text of [JSON.stringify(v), minimallyEscaped(v)]) {
          expect(fromText(text)).toBe(unstorableStringPath(JSON.parse(text)));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('names an escaped U+0000 or lone surrogate, and a raw lone surrogate, in values and keys', () => {
    expect(fromText('{"a":{"b":"x\\u0000"}}')).toBe('a.b');
    expect(fromText('{"a":["ok","\\ud800"]}')).toBe('a.1');
    expect(fromText('{"k\\udc00":1}')).toBe('k\udc00');
    expect(fromText('{"a":"x\ud800"}')).toBe('a');
    expect(fromText('{"\udfffk":true}')).toBe('\udfffk');
  });

  it('accepts escaped backslashes, paired surrogates and plain text', () => {
    expect(fromText('{"a":"C:\\\\u0000"}')).toBeUndefined();
    expect(fromText('{"a":"\\ud83c\\udfe0","b":"\u{1F3E0}"}')).toBeUndefined();
    expect(fromText('{"bundleId":"bundle-42","n":[1,2,{"x":null}]}')).toBeUndefined();
  });
});

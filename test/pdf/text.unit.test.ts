import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import {
  breakLongWords,
  clipped,
  PDF_TEXT_MAX_CHARS,
  printable,
  wrapMono,
  wrapShell,
} from '../../src/pdf/text.js';

/**
 * The PDF's text helpers on any input: wrapped lines fit and lose nothing, a wrapped command
 * pastes back as the same command, clipped text keeps its surrogate pairs whole and says what it
 * left out, and nothing undrawable reaches the page.
 */

const words = fc.array(
  fc.stringMatching(/^[!-~]{1,60}$/).filter((w) => !w.includes('\\')),
  {
    maxLength: 30,
  },
);

describe('wrapMono', () => {
  it('every line fits, no line starts or ends with a space, no character is lost', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 1, max: 120 }), (text, cols) => {
        const lines = wrapMono(text, cols);
        for (const line of lines) {
          expect(line.length).toBeLessThanOrEqual(cols);
          expect(line).toBe(line.trim());
        }
        expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});

describe('wrapShell', () => {
  it('every line fits, and bash reads the lines back as the same command', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 3, max: 100 }), (tokens, cols) => {
        const lines = wrapShell(tokens.join(' '), cols);
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(cols);
        // bash drops each backslash-newline pair
        expect(lines.join('\n').replace(/\\\n/g, '')).toBe(tokens.join(' '));
      }),
    );
  });
});

describe('clipped and printable', () => {
  it('clipped keeps short text, bounds long text, never splits a surrogate pair', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 3000 }),
          // around the cut: astral characters (surrogate pairs); then many newlines
          fc.string({
            unit: fc.constantFrom('a', '😀', 'é'),
            minLength: 1150,
            maxLength: 1300,
          }),
          fc.string({ unit: fc.constantFrom('a', '😀', '\n'), minLength: 20, maxLength: 80 }),
        ),
        (text) => {
          const out = clipped(text);
          if (text.length <= PDF_TEXT_MAX_CHARS && text.split('\n').length <= 24) {
            expect(out).toBe(text);
            return;
          }
          const kept = out.replace(/ \[\.\.\. \d+ more characters not shown\]$/, '');
          expect(text.startsWith(kept)).toBe(true);
          expect(kept.length).toBeLessThanOrEqual(PDF_TEXT_MAX_CHARS);
          expect(out).toContain(`[... ${text.length - kept.length} more characters not shown]`);
          expect(
            /[\uD800-\uDBFF]$/.test(kept) && /^[\uDC00-\uDFFF]/.test(text.slice(kept.length)),
          ).toBe(false);
        },
      ),
    );
  });

  it('printable leaves only characters the standard fonts draw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 500 }), (text) => {
        for (const ch of printable(text)) {
          const code = ch.codePointAt(0)!;
          const drawable =
            ch === '\n' || (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff);
          expect(
            drawable || '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'.includes(ch),
            `U+${code.toString(16)}`,
          ).toBe(true);
        }
      }),
    );
  });
});

describe('breakLongWords', () => {
  const doc = new PDFDocument({ autoFirstPage: false }).font('Courier').fontSize(8);

  it('every line of a long word fits the width; short words and spacing are untouched', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-zA-Z0-9+/=:_-]{1,300}$/), { maxLength: 8 }),
        fc.integer({ min: 40, max: 400 }),
        (tokens, width) => {
          const text = tokens.join(' ');
          const out = breakLongWords(doc, text, width);
          expect(out.replace(/\n/g, '')).toBe(text);
          const pieces = out.split(' ');
          for (const [i, token] of tokens.entries()) {
            const piece = pieces[i] ?? '';
            if (token.length < 24) expect(piece).toBe(token);
            else
              for (const line of piece.split('\n')) {
                expect(doc.widthOfString(line)).toBeLessThanOrEqual(width);
              }
          }
        },
      ),
    );
  });
});

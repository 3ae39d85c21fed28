/**
 * Name normalisation for screening, applied identically to list names and subject names:
 *
 * 1. Apostrophes removed without a gap ("O'Brien" -> "obrien").
 * 2. Unicode NFKD, then combining marks removed ("José" -> "jose", "ﬁ" -> "fi").
 * 3. Lower case, then letters NFKD does not decompose folded to ASCII (ß -> ss, æ -> ae,
 *    ø -> o, ł -> l, ...).
 * 4. Every character that is not a letter or digit becomes a space ("DOE, John" -> "doe john").
 * 5. Whitespace collapsed, tokens sorted, so word order does not matter ("john doe").
 *
 * Letters of other scripts (Cyrillic, Arabic, ...) are kept as they are; no transliteration.
 */

const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

const COMBINING_MARKS = /\p{M}+/gu;
const FOLDABLE = /[ßæœøłđðþı]/gu;
const APOSTROPHES = /['’ʼ`´]/gu;
const NON_ALPHANUMERIC = /[^\p{L}\p{N}]+/gu;

/** The sorted normalised tokens of a name; empty when the name has no letters or digits. */
export function nameTokens(name: string): string[] {
  const folded = name
    .replace(APOSTROPHES, '')
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(FOLDABLE, (ch) => FOLDS[ch] ?? ch)
    .replace(NON_ALPHANUMERIC, ' ')
    .trim();
  return folded === '' ? [] : folded.split(' ').sort();
}

/** The normalised form of a name: its sorted tokens joined by single spaces. */
export function normaliseName(name: string): string {
  return nameTokens(name).join(' ');
}

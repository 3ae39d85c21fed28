import { MAX_OBJECT_DEPTH } from './nesting.js';

/**
 * The tokens of PDF syntax (ISO 32000-1 7.2, 7.3) as pdf-lib's parser reads them (BaseParser and
 * PDFObjectParser 1.17), on bytes, building nothing: where whitespace and comments end, where a
 * number, string or name ends, a dictionary key's decoded name, and where a stream's data ends.
 * Each function takes the bytes and an offset and looks at each byte a bounded number of times;
 * a token pdf-lib's parser refuses is a ScanError here. The object scanner (./scan.ts) reads
 * values with them.
 */

export class ScanError extends Error {
  override name = 'ScanError';
  constructor(readonly deep: boolean) {
    super(deep ? `nests deeper than ${MAX_OBJECT_DEPTH} levels` : 'is not a PDF value');
  }
}

const table = (chars: string): Uint8Array => {
  const out = new Uint8Array(256);
  for (const c of chars) out[c.charCodeAt(0)] = 1;
  return out;
};
const SPACE = table('\0\t\n\f\r ');
const DELIMITER = table('()<>[]{}/%');
/** A digit; false past the end (undefined). */
export const isDigit = (c: number | undefined): boolean =>
  c !== undefined && c >= 0x30 && c <= 0x39;
export const NUMERIC = table('0123456789+-.');
const bytesOf = (word: string): Uint8Array => Uint8Array.from(word, (c) => c.charCodeAt(0));
export const TRUE = bytesOf('true');
export const FALSE = bytesOf('false');
export const NULL = bytesOf('null');
const STREAM = bytesOf('stream');
const ENDSTREAM = bytesOf('endstream');
const END = bytesOf('end');
const [LF, CR, SP, PERCENT] = [0x0a, 0x0d, 0x20, 0x25];
const [OPEN_PAREN, CLOSE_PAREN, BACKSLASH, PLUS, MINUS, PERIOD] = [40, 41, 92, 43, 45, 46];

/** skipWhitespaceAndComments: the offset of the next byte that is neither. */
export function skipSpace(b: Uint8Array, from: number): number {
  let i = from;
  for (;;) {
    while (i < b.length && SPACE[b[i] as number] === 1) i += 1;
    if (b[i] !== PERCENT) return i;
    while (i < b.length && b[i] !== LF && b[i] !== CR) i += 1;
  }
}

/** matchKeyword: whether `word` stands at `at` (nothing is required after it). */
export function wordAt(b: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at < 0 || at + word.length > b.length) return false;
  for (let i = 0; i < word.length; i += 1) if (b[at + i] !== word[i]) return false;
  return true;
}

/** parseName: a name's characters run to the next whitespace or delimiter. */
export function nameEnd(b: Uint8Array, from: number): number {
  let i = from;
  while (i < b.length && !SPACE[b[i] ?? -1] && !DELIMITER[b[i] ?? -1]) i += 1;
  return i;
}

/** A name as PDFName.of decodes it: `#` and two digits or upper-case hex letters are one byte. */
export function decodedName(b: Uint8Array, from: number, to: number): string {
  const text = latin1(b, from, to);
  if (!text.includes('#')) return text;
  return text.replace(/#([\dABCDEF]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

/**
 * parseRawNumber: where the number that starts at `p` ends. pdf-lib reads sign, digit and period
 * bytes up to the first period, then digits, and throws unless Number() of them is finite: only
 * `[+-]?(digits[.digits]|.digits)` is, and fewer than 300 characters cannot pass the largest
 * double. A sign after the first byte makes the text no number, wherever it ends.
 */
export function numberEnd(b: Uint8Array, p: number): number {
  let i = b[p] === PLUS || b[p] === MINUS ? p + 1 : p;
  const integer = i;
  while (isDigit(b[i])) i += 1;
  let digits = i - integer;
  if (b[i] === PERIOD) {
    const fraction = i + 1;
    i = fraction;
    while (isDigit(b[i])) i += 1;
    digits += i - fraction;
  } else if (b[i] === PLUS || b[i] === MINUS) throw new ScanError(false);
  if (digits === 0) throw new ScanError(false);
  if (i - p >= 300 && !Number.isFinite(numberAt(b, p, i))) throw new ScanError(false);
  return i;
}

/** Number() of a number's text, as pdf-lib computes its value. */
export const numberAt = (b: Uint8Array, from: number, to: number): number =>
  Number(latin1(b, from, to));

/** parseString: the offset after a literal string (balanced parentheses, `\` escaping a byte). */
export function literalEnd(b: Uint8Array, p: number): number {
  let open = 0;
  let escaped = false;
  for (let i = p; i < b.length;) {
    const c = b[i++];
    if (!escaped && c === OPEN_PAREN) open += 1;
    if (!escaped && c === CLOSE_PAREN) open -= 1;
    escaped = c === BACKSLASH ? !escaped : false;
    if (open === 0) return i;
  }
  throw new ScanError(false);
}

/** The `stream` keyword at `p` and the end of line pdf-lib takes with it: its length, or 0. */
export function streamKeyword(b: Uint8Array, p: number): number {
  if (!wordAt(b, p, STREAM)) return 0;
  const [x, y, z] = [b[p + 6], b[p + 7], b[p + 8]];
  if (x === SP && y === CR && z === LF) return 9;
  if (x === CR && y === LF) return 8;
  return x === CR || x === LF ? 7 : 6;
}

/**
 * The offset after the `endstream` that ends a stream whose data starts at `start`: after
 * /Length bytes (a direct number) when `endstream` follows there, else pdf-lib's fallback, where
 * each `stream` in the data opens one more level and each `endstream` closes one.
 */
export function streamEnd(b: Uint8Array, start: number, length: number | undefined): number {
  if (length !== undefined) {
    const end = start + length;
    if (Number.isInteger(end) && end >= 0 && end < b.length) {
      const q = skipSpace(b, end);
      if (wordAt(b, q, ENDSTREAM)) return q + ENDSTREAM.length;
    }
  }
  let open = 1;
  for (let pos = start; ;) {
    const s = find(b, STREAM, pos);
    if (s < 0) throw new ScanError(false);
    // `endstream` holds `stream`: it closes when its `end` lies in what is left to read
    open += s - 3 >= pos && wordAt(b, s - 3, END) ? -1 : 1;
    pos = s + STREAM.length;
    if (open === 0) return pos;
  }
}

function find(b: Uint8Array, word: Uint8Array, from: number): number {
  const first = word[0] ?? 0;
  for (let at = b.indexOf(first, from); at >= 0; at = b.indexOf(first, at + 1)) {
    if (wordAt(b, at, word)) return at;
  }
  return -1;
}

function latin1(b: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i += 1) text += String.fromCharCode(b[i] ?? 0);
  return text;
}

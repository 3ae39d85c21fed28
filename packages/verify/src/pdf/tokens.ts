import type { PDFObject, PDFParser } from 'pdf-lib';

/**
 * The length of each string, name and number pdf-lib's parser reads. It builds each a character
 * at a time (a string of 5 MiB peaked past 250 MiB, a name of 5 MiB past 450 MiB), so its
 * readers are wrapped on the parser instance: the token's extent is found first, from where the
 * parser stands, and a token past its bound ends the parse before pdf-lib reads it.
 */

/** Bytes of one string (a receipt's largest is its signature's hex /Contents, at most 128 KiB). */
export const MAX_STRING_BYTES = 256 * 1024;
/** Bytes of one name or number (ISO 32000-1 limits names to 127 bytes; numbers are shorter). */
export const MAX_WORD_BYTES = 1024;

/** The parser's readers of strings, names and numbers (protected in its types). */
type Readers = {
  bytes: { offset(): number };
  parseString(): PDFObject;
  parseHexString(): PDFObject;
  parseName(): PDFObject;
  parseRawNumber(): number;
  parseRawInt(): number;
};
type ReaderName = Exclude<keyof Readers, 'bytes'>;

export function boundTokens(
  parser: PDFParser,
  input: Uint8Array,
  refuse: (reason: string) => never,
): void {
  const internals = parser as unknown as Partial<Readers>;
  const { bytes } = internals;
  const names: ReaderName[] = [
    'parseString',
    'parseHexString',
    'parseName',
    'parseRawNumber',
    'parseRawInt',
  ];
  if (!bytes || names.some((name) => typeof internals[name] !== 'function')) {
    throw new Error('unsupported pdf-lib parser');
  }
  const wrap = <T>(name: ReaderName, extent: (at: number) => number, max: number, what: string) => {
    const read = (internals[name] as () => T).bind(parser);
    (internals as Record<string, unknown>)[name] = (): T => {
      if (extent(bytes.offset()) > max) refuse(`a PDF ${what} is longer than ${max / 1024} KiB`);
      return read();
    };
  };
  wrap('parseString', (at) => literalLength(input, at), MAX_STRING_BYTES, 'string');
  wrap('parseHexString', (at) => hexLength(input, at), MAX_STRING_BYTES, 'string');
  for (const name of ['parseName', 'parseRawNumber', 'parseRawInt'] as const) {
    wrap(name, (at) => wordLength(input, at), MAX_WORD_BYTES, 'name or number');
  }
}

/** Bytes from `at` to the `>` that ends a hex string (to the end of the input when none does). */
function hexLength(input: Uint8Array, at: number): number {
  const end = input.indexOf(0x3e, at);
  return (end < 0 ? input.length : end) - at;
}

/** Bytes of the literal string opening at `at`, counted no further than just past the bound. */
function literalLength(input: Uint8Array, at: number): number {
  let open = 0;
  const stop = Math.min(input.length, at + MAX_STRING_BYTES + 2);
  for (let i = at; i < stop; i += 1) {
    const b = input[i];
    if (b === 0x5c) i += 1;
    else if (b === 0x28) open += 1;
    else if (b === 0x29 && --open === 0) return i - at;
  }
  return stop - at;
}

/** Regular characters from `at` (a name's slash counts as one), up to just past the bound. */
function wordLength(input: Uint8Array, at: number): number {
  const stop = Math.min(input.length, at + MAX_WORD_BYTES + 2);
  let i = input[at] === 0x2f ? at + 1 : at;
  while (i < stop && !isSpaceOrDelimiter(input[i] ?? 0)) i += 1;
  return i - at;
}

/** PDF whitespace and delimiters: NUL HT LF FF CR SP ( ) < > [ ] { } / % */
const isSpaceOrDelimiter = (b: number): boolean =>
  [0, 9, 10, 12, 13, 32, 40, 41, 60, 62, 91, 93, 123, 125, 47, 37].includes(b);

import {
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFParser,
  PDFRawStream,
} from 'pdf-lib';
import { decodeBounded } from './decode.js';
import { MAX_OBJECT_DEPTH, nestsDeeperThan } from './nesting.js';
import { boundTokens } from './tokens.js';

/**
 * Loading a PDF with pdf-lib's parser, bounded. The parser reads the whole file and, on the way,
 * decodes in full every object stream (/Type /ObjStm) and cross-reference stream (/Type /XRef)
 * and walks the entries they declare: compression bombs and loops of millions of entries.
 *
 * Each object the parser reads passes through `parseObject`, which this module wraps on the
 * parser instance: a stream whose /Type is ObjStm or XRef (looked up exactly as the parser does,
 * at the same moment) is first decoded here under the remaining budget, and its declared entry
 * counts are checked against what it holds. Only then does pdf-lib decode it, to the same bytes.
 * A refused stream throws, which ends the parse (`throwOnInvalidObject`), so nothing unchecked is
 * decoded. A pre-scan of the raw bytes would have to find the same streams, with the same extent
 * and filters, as the parser; checking the parser's own objects cannot disagree with it.
 *
 * The parser recurses once per array or dictionary level: its own `parseArray` and `parseDict`
 * are wrapped to count the depth, and an object stream (read by a parser of pdf-lib's own making)
 * is refused when its decoded data nests deeper than the same bound (./nesting.ts).
 */
export type Loaded =
  { ok: true; context: PDFContext; catalog: PDFDict } | { ok: false; reason: string };

/** Decoded bytes of all object and cross-reference streams together (a receipt has none). */
export const MAX_INDEX_STREAM_BYTES = 1024 * 1024;
/** Entries those streams declare, together. */
const MAX_INDEX_ENTRIES = 100_000;
/** Objects parsed (a receipt has a few hundred, counting array elements). */
const MAX_OBJECTS = 200_000;

class Refused extends Error {}

export async function loadPdf(bytes: Uint8Array): Promise<Loaded> {
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity, true, true);
  const guard = new IndexGuard();
  const parseObject = parser.parseObject.bind(parser);
  parser.parseObject = (): PDFObject => guard.check(parseObject());
  let context: PDFContext;
  try {
    boundDepth(parser, guard);
    boundTokens(parser, bytes, (reason) => guard.refuse(reason));
    refuseJibberish(parser, bytes, guard);
    context = await parser.parseDocument();
  } catch {
    return { ok: false, reason: guard.refused ?? 'not a readable PDF' };
  }
  if (guard.refused !== undefined) return { ok: false, reason: guard.refused };
  if (context.trailerInfo.Encrypt !== undefined) {
    return { ok: false, reason: 'the PDF is encrypted' };
  }
  const catalog = context.trailerInfo.Root && context.lookup(context.trailerInfo.Root);
  if (!(catalog instanceof PDFDict)) return { ok: false, reason: 'the PDF has no catalog' };
  return { ok: true, context, catalog };
}

class IndexGuard {
  refused: string | undefined;
  private objects = 0;
  private bytesLeft = MAX_INDEX_STREAM_BYTES;
  private entriesLeft = MAX_INDEX_ENTRIES;

  check(object: PDFObject): PDFObject {
    if (++this.objects > MAX_OBJECTS) this.refuse(`the PDF has more than ${MAX_OBJECTS} objects`);
    if (!(object instanceof PDFRawStream)) return object;
    const type = object.dict.lookup(PDFName.of('Type'));
    if (type === PDFName.of('ObjStm')) this.admit(object, 'object stream', objStmEntries);
    if (type === PDFName.of('XRef')) this.admit(object, 'cross-reference stream', xrefEntries);
    return object;
  }

  private admit(stream: PDFRawStream, kind: string, entries: EntryCount): void {
    const decoded = decodeBounded(stream, this.bytesLeft, true);
    if (!decoded.ok) {
      if (decoded.error === 'too-large') {
        this.refuse(`the PDF's ${kind}s are larger than ${MAX_INDEX_STREAM_BYTES} bytes`);
      }
      this.refuse(`a PDF ${kind} cannot be read: ${decoded.detail}`);
    }
    this.bytesLeft -= decoded.bytes.length;
    if (kind === 'object stream' && nestsDeeperThan(decoded.bytes, MAX_OBJECT_DEPTH)) {
      this.refuse(`a PDF object stream nests deeper than ${MAX_OBJECT_DEPTH} levels`);
    }
    const count = entries(stream.dict, decoded.bytes.length);
    if (count === undefined) this.refuse(`a PDF ${kind} declares more entries than it holds`);
    this.entriesLeft -= count;
    if (this.entriesLeft < 0) this.refuse(`the PDF's ${kind}s declare too many entries`);
  }

  refuse(reason: string): never {
    this.refused ??= reason;
    throw new Refused(reason);
  }
}

/** The parser's recursive readers (protected in its types). */
type Nesting = { parseArray(): PDFObject; parseDict(): PDFObject };

/** Each array or dictionary the parser enters counts one level; past the bound the parse ends. */
function boundDepth(parser: PDFParser, guard: IndexGuard): void {
  const internals = parser as unknown as Partial<Nesting>;
  const { parseArray, parseDict } = internals;
  if (typeof parseArray !== 'function' || typeof parseDict !== 'function') {
    throw new Error('unsupported pdf-lib parser');
  }
  let depth = 0;
  const counted = (read: () => PDFObject) => (): PDFObject => {
    depth += 1;
    try {
      if (depth > MAX_OBJECT_DEPTH) {
        guard.refuse(`a PDF object nests deeper than ${MAX_OBJECT_DEPTH} levels`);
      }
      return read();
    } finally {
      depth -= 1;
    }
  };
  internals.parseArray = counted(parseArray.bind(parser));
  internals.parseDict = counted(parseDict.bind(parser));
}

/** The parser internals that skipping data between objects uses (protected in its types). */
type ParserInternals = {
  bytes: { offset(): number; done(): boolean };
  skipWhitespaceAndComments(): void;
  skipJibberish(): void;
};

/**
 * pdf-lib skips unreadable bytes between objects by trying an object header at every byte, which
 * is quadratic in a run of digits (40 KB of them took a minute). A receipt has none: whatever
 * there is not an object, xref, trailer or startxref ends the parse. A parser without these
 * internals is refused rather than run unbounded.
 */
function refuseJibberish(parser: PDFParser, input: Uint8Array, guard: IndexGuard): void {
  const internals = parser as unknown as Partial<ParserInternals>;
  const { bytes, skipWhitespaceAndComments } = internals;
  if (!bytes || typeof skipWhitespaceAndComments !== 'function' || !internals.skipJibberish) {
    throw new Error('unsupported pdf-lib parser');
  }
  const skip = skipWhitespaceAndComments.bind(parser);
  internals.skipJibberish = (): void => {
    skip();
    if (bytes.done()) return;
    const at = bytes.offset();
    const next = input[at] ?? 0;
    // A digit starts an object header; the parser fails on it if it is not one.
    if (next >= 0x30 && next <= 0x39) return;
    if (['xref', 'trailer', 'startxref'].some((word) => startsWith(input, at, word))) return;
    guard.refuse('the PDF has unreadable data between its objects');
  };
}

const startsWith = (input: Uint8Array, at: number, word: string): boolean =>
  [...word].every((c, i) => input[at + i] === c.charCodeAt(0));

/** Entries a stream declares, or undefined when its data cannot hold them. */
type EntryCount = (dict: PDFDict, size: number) => number | undefined;

/** /N objects, each listed by two numbers (at least "1 0 "). A malformed /N fails in pdf-lib. */
const objStmEntries: EntryCount = (dict, size) => {
  const n = dict.lookup(PDFName.of('N'));
  const count = n instanceof PDFNumber ? Math.max(0, Math.ceil(n.asNumber())) : 0;
  return count * 4 <= size + 1 ? count : undefined;
};

/**
 * Rows of /W byte widths, one per entry of /Index (or /Size). pdf-lib reads the rows without
 * checking that the data holds them, and /W [0 0 0] makes rows of no bytes: so each row must
 * take at least one byte of the data, and a field at most 8.
 */
const xrefEntries: EntryCount = (dict, size) => {
  const w = dict.lookup(PDFName.of('W'));
  if (!(w instanceof PDFArray)) return 0;
  let rowBytes = 0;
  for (let i = 0; i < 3; i += 1) {
    const width = i < w.size() ? w.lookup(i) : undefined;
    const value = width instanceof PDFNumber ? width.asNumber() : 0;
    if (!(value >= 0 && value <= 8)) return undefined;
    rowBytes += Math.ceil(value);
  }
  const rows = xrefRows(dict);
  return rowBytes > 0 && rows * rowBytes <= size ? rows : undefined;
};

function xrefRows(dict: PDFDict): number {
  const index = dict.lookup(PDFName.of('Index'));
  const count = (value: unknown): number =>
    value instanceof PDFNumber ? Math.max(0, Math.ceil(value.asNumber())) : 0;
  if (!(index instanceof PDFArray)) return count(dict.lookup(PDFName.of('Size')));
  let rows = 0;
  for (let i = 1; i < index.size(); i += 2) rows += count(index.lookup(i));
  return rows;
}

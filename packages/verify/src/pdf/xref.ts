import { PDFDict, PDFName, type PDFObject, PDFRawStream } from 'pdf-lib';
import { decodeBounded } from './decode.js';
import {
  dictOf,
  elements,
  latin1,
  MAX_OBJECTS,
  name,
  numberOf,
  type ObjectReader,
  Unreadable,
} from './objects.js';

/**
 * The revisions of a PDF (ISO 32000-1 7.5.6, incremental updates): from the last `startxref`,
 * each cross-reference section (a table with its trailer, or a cross-reference stream, 7.5.8)
 * and, through /Prev, the one before it. Revision 1 is the original; each later one is the bytes
 * an incremental update appended. The revisions must tile the file from its first byte, each
 * section inside its own revision, so no byte of the file belongs to no revision unnoticed.
 */

export type Entry =
  | { kind: 'free' }
  | { kind: 'offset'; offset: number }
  | { kind: 'compressed'; stream: number; index: number };

export interface Revision {
  /** 1 for the original file. */
  number: number;
  /** Its bytes: [start, end), up to and including its %%EOF line. */
  start: number;
  end: number;
  /** Where its cross-reference section (table or stream) starts. */
  xrefAt: number;
  /** The objects its cross-reference section lists (added, changed or freed). */
  entries: Map<number, Entry>;
  trailer: PDFDict;
}

/** Revisions followed (a receipt has two: the rendered file and its signature). */
export const MAX_REVISIONS = 32;
/** How far past a section its %%EOF may be. */
const EOF_WINDOW = 4096;
/** The largest decoded cross-reference stream. */
const MAX_XREF_STREAM_BYTES = 1024 * 1024;

/** Every revision, oldest first; throws Unreadable for a file whose revisions cannot be read. */
export function readRevisions(reader: ObjectReader): Revision[] {
  const file = reader.file;
  const text = latin1(file.subarray(Math.max(0, file.length - 64 * 1024)));
  const at = text.lastIndexOf('startxref');
  const offset = at < 0 ? undefined : /^startxref\s+(\d{1,10})/.exec(text.slice(at))?.[1];
  if (offset === undefined) throw new Unreadable('the PDF has no startxref');
  const newestFirst: Section[] = [];
  let next: number | undefined = Number(offset);
  let listed = 0;
  while (next !== undefined) {
    if (newestFirst.length === MAX_REVISIONS) {
      throw new Unreadable(`the PDF has more than ${MAX_REVISIONS} revisions`);
    }
    const section = readSection(reader, next);
    listed += section.entries.size;
    if (listed > MAX_OBJECTS) throw new Unreadable('the PDF lists too many objects');
    newestFirst.push(section);
    const prev = numberOf(section.trailer.get(PDFName.of('Prev')));
    if (prev !== undefined && prev >= next) {
      throw new Unreadable(`a cross-reference section's /Prev (${prev}) does not go back`);
    }
    next = prev;
  }
  return tile(newestFirst.reverse(), file.length);
}

/** Numbers the revisions and checks that each starts where the one before ends. */
function tile(oldestFirst: Section[], length: number): Revision[] {
  let start = 0;
  return oldestFirst.map((r, i) => {
    const revision = { ...r, number: i + 1, start };
    if (r.xrefAt < start || r.end <= start || r.end > length) {
      throw new Unreadable(`revision ${i + 1}'s cross-reference section lies inside revision ${i}`);
    }
    start = r.end;
    return revision;
  });
}

type Section = { entries: Map<number, Entry>; trailer: PDFDict; end: number; xrefAt: number };

function readSection(reader: ObjectReader, at: number): Section {
  if (startsWith(reader.file, at, 'xref')) return readTable(reader, at);
  const parsed = reader.at(at);
  const stream = parsed.value;
  if (!(stream instanceof PDFRawStream) || name(stream.dict, 'Type') !== 'XRef') {
    throw new Unreadable(`no cross-reference section at byte ${at}`);
  }
  const entries = streamEntries(stream);
  return {
    entries,
    trailer: stream.dict,
    end: eofAfter(reader.file, parsed.extent?.end ?? at),
    xrefAt: at,
  };
}

/** A cross-reference table (7.5.4) and its trailer, with a hybrid file's /XRefStm (7.5.8.4). */
function readTable(reader: ObjectReader, at: number): Section {
  const file = reader.file;
  const cursor = new Cursor(file, at + 4);
  const entries = new Map<number, Entry>();
  for (;;) {
    cursor.skipSpace();
    if (startsWith(file, cursor.at, 'trailer')) break;
    const first = cursor.integer();
    const count = cursor.integer();
    if (entries.size + count > MAX_OBJECTS) throw new Unreadable('the PDF lists too many objects');
    for (let i = 0; i < count; i += 1) {
      const offset = cursor.integer();
      cursor.integer(); // generation
      const kind = cursor.keyword();
      if (kind !== 'n' && kind !== 'f')
        throw new Unreadable(`a malformed cross-reference table at byte ${at}`);
      if (!entries.has(first + i))
        entries.set(first + i, kind === 'n' ? { kind: 'offset', offset } : { kind: 'free' });
    }
  }
  const { value: trailer, used } = reader.parse(file, cursor.at + 'trailer'.length);
  if (!(trailer instanceof PDFDict)) throw new Unreadable(`no trailer dictionary after byte ${at}`);
  const hybrid = numberOf(trailer.get(PDFName.of('XRefStm')));
  if (hybrid !== undefined) {
    const stream = reader.at(hybrid).value;
    if (!(stream instanceof PDFRawStream)) throw new Unreadable(`no /XRefStm at byte ${hybrid}`);
    for (const [num, entry] of streamEntries(stream))
      if (!entries.has(num)) entries.set(num, entry);
  }
  return { entries, trailer, end: eofAfter(file, cursor.at + 'trailer'.length + used), xrefAt: at };
}

/** The entries of a cross-reference stream: /W field widths over /Index subsections. */
function streamEntries(stream: PDFRawStream): Map<number, Entry> {
  const data = xrefData(stream);
  const widths = elements(stream.dict.get(PDFName.of('W'))).map(numberOf);
  const [w0, w1, w2] = widths;
  if (
    widths.length !== 3 ||
    w0 === undefined ||
    w1 === undefined ||
    w2 === undefined ||
    w0 > 4 ||
    w1 > 8 ||
    w2 > 8
  ) {
    throw new Unreadable('a cross-reference stream has a malformed /W');
  }
  const row = w0 + w1 + w2;
  const size = numberOf(stream.dict.get(PDFName.of('Size'))) ?? 0;
  const index = elements(stream.dict.get(PDFName.of('Index'))).map(numberOf);
  const ranges = index.length > 0 ? index : [0, size];
  const entries = new Map<number, Entry>();
  let at = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    const [first, count] = [ranges[r], ranges[r + 1]];
    if (first === undefined || count === undefined || row === 0 || at + count * row > data.length) {
      throw new Unreadable('a cross-reference stream declares more entries than it holds');
    }
    for (let i = 0; i < count; i += 1, at += row) {
      const field = (from: number, width: number, absent: number): number =>
        width === 0 ? absent : data.subarray(from, from + width).reduce((n, b) => n * 256 + b, 0);
      const type = field(at, w0, 1);
      const a = field(at + w0, w1, 0);
      const b = field(at + w0 + w1, w2, 0);
      const entry: Entry | undefined =
        type === 0
          ? { kind: 'free' }
          : type === 1
            ? { kind: 'offset', offset: a }
            : type === 2
              ? { kind: 'compressed', stream: a, index: b }
              : undefined;
      if (entry && !entries.has(first + i)) entries.set(first + i, entry);
    }
  }
  return entries;
}

/** A cross-reference stream's data, undoing a PNG predictor (7.4.4.4) when it has one. */
function xrefData(stream: PDFRawStream): Uint8Array {
  const decoded = decodeBounded(stream, MAX_XREF_STREAM_BYTES, true);
  if (!decoded.ok)
    throw new Unreadable(`a cross-reference stream cannot be read: ${decoded.detail}`);
  const params = dictOf(first(stream.dict.get(PDFName.of('DecodeParms'))));
  const predictor = params ? numberOf(params.get(PDFName.of('Predictor'))) : undefined;
  if (predictor === undefined || predictor === 1) return decoded.bytes;
  const columns = (params && numberOf(params.get(PDFName.of('Columns')))) ?? 1;
  if (predictor < 10 || columns === 0 || columns > 64)
    throw new Unreadable('an unsupported cross-reference stream predictor');
  return unpredictPng(decoded.bytes, columns);
}

const first = (value: PDFObject | undefined): PDFObject | undefined => elements(value)[0] ?? value;

/** PNG row filters with one byte per pixel: each row is its filter type and `columns` bytes. */
function unpredictPng(data: Uint8Array, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r += 1) {
    const type = data[r * (columns + 1)];
    for (let c = 0; c < columns; c += 1) {
      const raw = data[r * (columns + 1) + 1 + c] ?? 0;
      const left = c > 0 ? (out[r * columns + c - 1] ?? 0) : 0;
      const up = r > 0 ? (out[(r - 1) * columns + c] ?? 0) : 0;
      const corner = r > 0 && c > 0 ? (out[(r - 1) * columns + c - 1] ?? 0) : 0;
      const guess =
        type === 1
          ? left
          : type === 2
            ? up
            : type === 3
              ? (left + up) >> 1
              : type === 4
                ? paeth(left, up, corner)
                : 0;
      if (type === undefined || type > 4)
        throw new Unreadable('a malformed cross-reference stream row');
      out[r * columns + c] = (raw + guess) & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The end of the %%EOF line that closes a section ending at `from`. */
function eofAfter(file: Uint8Array, from: number): number {
  const text = latin1(file.subarray(from, from + EOF_WINDOW));
  const at = text.indexOf('%%EOF');
  if (at < 0 || !text.slice(0, at).includes('startxref')) {
    throw new Unreadable(`no startxref and %%EOF after the section ending at byte ${from}`);
  }
  let end = from + at + 5;
  if (file[end] === 0x0d) end += 1;
  if (file[end] === 0x0a) end += 1;
  return end;
}

export const startsWith = (bytes: Uint8Array, at: number, word: string): boolean =>
  at >= 0 && [...word].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** Integers and keywords of a cross-reference table, read forward. */
class Cursor {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  skipSpace(): void {
    while ([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(this.bytes[this.at] ?? -1)) this.at += 1;
  }

  integer(): number {
    this.skipSpace();
    const from = this.at;
    while (
      this.at - from < 10 &&
      (this.bytes[this.at] ?? 0) >= 0x30 &&
      (this.bytes[this.at] ?? 0) <= 0x39
    )
      this.at += 1;
    if (this.at === from) throw new Unreadable(`a malformed cross-reference table at byte ${from}`);
    return Number(latin1(this.bytes.subarray(from, this.at)));
  }

  keyword(): string {
    this.skipSpace();
    return String.fromCharCode(this.bytes[this.at++] ?? 0);
  }
}

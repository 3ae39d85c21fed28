import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFRawStream,
} from 'pdf-lib';
import { decodeBounded } from './decode.js';

/**
 * Single indirect objects read at a byte offset of the file, or from an object stream, the way a
 * reader that follows the cross-reference sections finds them (ISO 32000-1 7.3.10, 7.5.7). Each
 * read is bounded (one object at most MAX_OBJECT_BYTES, all reads together a fixed budget), and a
 * malformed object is a `Unreadable` error that the revision reader turns into a typed failure.
 */

/** Largest single object read (a receipt's largest, the attached bundle, is a few KiB). */
export const MAX_OBJECT_BYTES = 1024 * 1024;
/** Bytes all object reads together may scan (the file is at most 6 MiB, read about once). */
const READ_BUDGET_BYTES = 16 * 1024 * 1024;
/** Objects all revisions together may list (a receipt has about thirty). */
export const MAX_OBJECTS = 20_000;
/** Objects one object stream may hold. */
const MAX_STREAM_OBJECTS = 10_000;

export class Unreadable extends Error {
  override name = 'Unreadable';
}

export interface Parsed {
  value: PDFObject;
  /** Where the object lies in the file ("N G obj" to the end of its value); absent in a stream. */
  extent?: { start: number; end: number };
}

type Internals = { bytes: { offset(): number } };

const HEADER = /^(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj/;

/** Reads objects of one file under one budget; every read is remembered. */
export class ObjectReader {
  readonly context = PDFContext.create();
  private budget = READ_BUDGET_BYTES;
  private readonly atOffset = new Map<number, Parsed>();
  private readonly streams = new Map<number, Map<number, PDFObject>>();

  constructor(readonly file: Uint8Array) {}

  /** The indirect object at `offset`, which must be object `num` when given. */
  at(offset: number, num?: number): Parsed {
    const known = this.atOffset.get(offset);
    if (known) return known;
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= this.file.length) {
      throw new Unreadable(`an object offset (${offset}) lies outside the file`);
    }
    const head = latin1(this.file.subarray(offset, offset + 40));
    const match = HEADER.exec(head);
    if (!match || (num !== undefined && Number(match[1]) !== num)) {
      throw new Unreadable(`no object ${num ?? ''} at byte ${offset}`.replace('  ', ' '));
    }
    const start = offset + match[0].length;
    const { value, used } = this.parse(this.file, start);
    const parsed = { value, extent: { start: offset, end: start + used } };
    this.atOffset.set(offset, parsed);
    return parsed;
  }

  /** Object `index` of the object stream `stream` (found with `lookup`), which must be `num`. */
  inStream(
    stream: PDFObject | undefined,
    streamNum: number,
    index: number,
    num: number,
  ): PDFObject {
    const value = this.membersOf(stream, streamNum).get(index * 0x1_0000_0000 + num);
    if (value === undefined)
      throw new Unreadable(`object stream ${streamNum} has no object ${num}`);
    return value;
  }

  /** The object numbers an object stream holds, in order. */
  numbersIn(stream: PDFObject | undefined, streamNum: number): number[] {
    return [...this.membersOf(stream, streamNum).keys()].map((key) => key % 0x1_0000_0000);
  }

  private membersOf(stream: PDFObject | undefined, streamNum: number): Map<number, PDFObject> {
    let members = this.streams.get(streamNum);
    if (!members) {
      members = this.members(stream, streamNum);
      this.streams.set(streamNum, members);
    }
    return members;
  }

  /** A value parsed from `bytes` at `start`, and the bytes it took. */
  parse(bytes: Uint8Array, start: number): { value: PDFObject; used: number } {
    const slice = bytes.subarray(start, Math.min(bytes.length, start + MAX_OBJECT_BYTES));
    const parser = PDFObjectParser.forBytes(slice, this.context);
    let value: PDFObject;
    try {
      value = parser.parseObject();
    } catch {
      // a malformed object, nesting deeper than the stack, or a stream without its end
      this.spend(slice.length);
      throw new Unreadable(`an object at byte ${start} cannot be read`);
    }
    const used = (parser as unknown as Internals).bytes.offset();
    this.spend(used);
    return { value, used };
  }

  private spend(bytes: number): void {
    this.budget -= bytes;
    if (this.budget < 0) throw new Unreadable('the PDF takes too long to read object by object');
  }

  /** An object stream's objects, keyed by position and number. */
  private members(stream: PDFObject | undefined, streamNum: number): Map<number, PDFObject> {
    if (!(stream instanceof PDFRawStream) || name(stream.dict, 'Type') !== 'ObjStm') {
      throw new Unreadable(`object ${streamNum} is not an object stream`);
    }
    const decoded = decodeBounded(stream, MAX_OBJECT_BYTES);
    if (!decoded.ok) throw new Unreadable(`object stream ${streamNum}: ${decoded.detail}`);
    this.spend(decoded.bytes.length);
    const n = numberOf(stream.dict.get(PDFName.of('N')));
    const first = numberOf(stream.dict.get(PDFName.of('First')));
    if (n === undefined || first === undefined || n > MAX_STREAM_OBJECTS) {
      throw new Unreadable(`object stream ${streamNum} has a malformed /N or /First`);
    }
    const head = latin1(decoded.bytes.subarray(0, first)).trim();
    const numbers = head === '' ? [] : head.split(/[\0\t\n\f\r ]+/).map(Number);
    if (numbers.length !== 2 * n || !numbers.every(Number.isSafeInteger)) {
      throw new Unreadable(`object stream ${streamNum} has a malformed header`);
    }
    const members = new Map<number, PDFObject>();
    for (let i = 0; i < n; i += 1) {
      const num = numbers[2 * i] as number;
      const at = first + (numbers[2 * i + 1] as number);
      if (at >= decoded.bytes.length)
        throw new Unreadable(`object stream ${streamNum}: bad offset`);
      members.set(i * 0x1_0000_0000 + num, this.parse(decoded.bytes, at).value);
    }
    return members;
  }
}

export const latin1 = (bytes: Uint8Array): string => {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return out;
};

/** A whole, non-negative number, or undefined. */
export function numberOf(value: PDFObject | undefined): number | undefined {
  if (!(value instanceof PDFNumber)) return undefined;
  const n = value.asNumber();
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A dictionary's name entry (direct), without its slash. */
export function name(dict: PDFDict, key: string): string | undefined {
  const value = dict.get(PDFName.of(key));
  return value instanceof PDFName ? value.decodeText() : undefined;
}

/** The dictionary of a dictionary or stream object. */
export function dictOf(value: PDFObject | undefined): PDFDict | undefined {
  if (value instanceof PDFDict) return value;
  if (value instanceof PDFRawStream) return value.dict;
  return undefined;
}

/** The elements of an array value. */
export const elements = (value: PDFObject | undefined): PDFObject[] =>
  value instanceof PDFArray ? value.asArray() : [];

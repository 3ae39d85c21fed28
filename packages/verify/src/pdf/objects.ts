import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
} from 'pdf-lib';
import { decodeBounded } from './decode.js';
import { type ObjectScan, ScanError, scanObject } from './scan.js';

/**
 * Single indirect objects read at a byte offset of the file, or from an object stream, the way a
 * reader that follows the cross-reference sections finds them (ISO 32000-1 7.3.10, 7.5.7). Each
 * object is scanned first (./scan.ts: its extent, kind, keys and references, without building its
 * values) and parsed by pdf-lib only when a rule asks for its value; both readings are kept. Each
 * read is bounded (one object at most MAX_OBJECT_BYTES and MAX_OBJECT_DEPTH levels deep, all
 * objects' bytes together a fixed budget, charged when an object is first scanned), and a
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

/** An object as scanned: what it is and refers to, and where it lies (absent in a stream). */
export interface Scanned extends ObjectScan {
  extent?: { start: number; end: number };
}

/** A value's place: the bytes it is read from and where in them it starts. */
interface Place {
  bytes: Uint8Array;
  start: number;
}

const HEADER = /^(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj/;

/** Reads objects of one file under one budget; every scan and parse is remembered. */
export class ObjectReader {
  readonly context = PDFContext.create();
  private budget = READ_BUDGET_BYTES;
  private readonly scans = new Map<number, Scanned & Place>();
  private readonly values = new Map<number, PDFObject>();
  private readonly streams = new Map<number, Map<number, Scanned & Place>>();
  private readonly members = new Map<Scanned, PDFObject>();

  constructor(readonly file: Uint8Array) {}

  /** The indirect object at `offset`, scanned, which must be object `num` when given. */
  scan(offset: number, num?: number): Scanned {
    const known = this.scans.get(offset);
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
    const scan = this.scanAt(this.file, start);
    const scanned = { ...scan, extent: { start: offset, end: start + scan.used } };
    this.scans.set(offset, { ...scanned, bytes: this.file, start });
    return scanned;
  }

  /** The indirect object at `offset`, parsed, which must be object `num` when given. */
  at(offset: number, num?: number): Parsed {
    this.scan(offset, num);
    const scanned = this.scans.get(offset) as Scanned & Place;
    let value = this.values.get(offset);
    if (!value) {
      value = this.valueOf(scanned);
      this.values.set(offset, value);
    }
    return { value, extent: scanned.extent };
  }

  /** Object `index` of the object stream `stream` (found with `lookup`), which must be `num`. */
  inStream(
    stream: PDFObject | undefined,
    streamNum: number,
    index: number,
    num: number,
  ): PDFObject {
    const member = this.scanInStream(stream, streamNum, index, num) as Scanned & Place;
    let value = this.members.get(member);
    if (!value) {
      value = this.valueOf(member);
      this.members.set(member, value);
    }
    return value;
  }

  /** Object `index` of the object stream `stream`, scanned, which must be `num`. */
  scanInStream(
    stream: PDFObject | undefined,
    streamNum: number,
    index: number,
    num: number,
  ): Scanned {
    const member = this.membersOf(stream, streamNum).get(index * 0x1_0000_0000 + num);
    if (member === undefined)
      throw new Unreadable(`object stream ${streamNum} has no object ${num}`);
    return member;
  }

  /** The object numbers an object stream holds, in order. */
  numbersIn(stream: PDFObject | undefined, streamNum: number): number[] {
    return [...this.membersOf(stream, streamNum).keys()].map((key) => key % 0x1_0000_0000);
  }

  private membersOf(
    stream: PDFObject | undefined,
    streamNum: number,
  ): Map<number, Scanned & Place> {
    let members = this.streams.get(streamNum);
    if (!members) {
      members = this.scanMembers(stream, streamNum);
      this.streams.set(streamNum, members);
    }
    return members;
  }

  /** A value parsed from `bytes` at `start`, and the bytes it took (scanned first). */
  parse(bytes: Uint8Array, start: number): { value: PDFObject; used: number } {
    const scan = this.scanAt(bytes, start);
    return { value: this.valueOf({ ...scan, bytes, start }), used: scan.used };
  }

  /** The scan of the value at `start`, its bytes charged to the budget. */
  private scanAt(bytes: Uint8Array, start: number): ObjectScan {
    const slice = bytes.subarray(start, Math.min(bytes.length, start + MAX_OBJECT_BYTES));
    let scan: ObjectScan;
    try {
      scan = scanObject(slice);
    } catch (err) {
      if (!(err instanceof ScanError)) throw err;
      this.spend(slice.length);
      throw new Unreadable(
        err.deep
          ? `an object at byte ${start} ${err.message}`
          : `an object at byte ${start} cannot be read`,
      );
    }
    this.spend(scan.used);
    return scan;
  }

  /** pdf-lib's value of a scanned object (its bytes were charged when scanned). */
  private valueOf(scanned: Place): PDFObject {
    const { bytes, start } = scanned;
    const slice = bytes.subarray(start, Math.min(bytes.length, start + MAX_OBJECT_BYTES));
    try {
      return PDFObjectParser.forBytes(slice, this.context).parseObject();
    } catch {
      throw new Unreadable(`an object at byte ${start} cannot be read`);
    }
  }

  private spend(bytes: number): void {
    this.budget -= bytes;
    if (this.budget < 0) throw new Unreadable('the PDF takes too long to read object by object');
  }

  /** An object stream's objects, scanned, keyed by position and number. */
  private scanMembers(
    stream: PDFObject | undefined,
    streamNum: number,
  ): Map<number, Scanned & Place> {
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
    const members = new Map<number, Scanned & Place>();
    for (let i = 0; i < n; i += 1) {
      const num = numbers[2 * i] as number;
      const at = first + (numbers[2 * i + 1] as number);
      if (at >= decoded.bytes.length)
        throw new Unreadable(`object stream ${streamNum}: bad offset`);
      const scan = this.scanAt(decoded.bytes, at);
      members.set(i * 0x1_0000_0000 + num, { ...scan, bytes: decoded.bytes, start: at });
    }
    return members;
  }
}

export const latin1 = (bytes: Uint8Array): string => {
  let out = '';
  // apply takes the typed array as it is; a spread would walk it with an iterator, 7 times slower
  for (let i = 0; i < bytes.length; i += 4096) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + 4096) as unknown as number[]);
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

/** The object number of a reference, or undefined for a direct value. */
export const refNum = (v: PDFObject | undefined): number | undefined =>
  v instanceof PDFRef ? v.objectNumber : undefined;

/** The keys either of two dictionaries has, without their slashes, at most 256. */
export function keysOf(a: PDFDict, b: PDFDict): string[] {
  const names = new Set([...a.keys(), ...b.keys()].map((k) => k.decodeText()));
  return [...names].slice(0, 256);
}

import { PDFArray, PDFDict, PDFNumber, type PDFObject, PDFRawStream, PDFRef } from 'pdf-lib';
import { equalBytes } from '../encoding.js';
import { MAX_OBJECT_BYTES, type ObjectReader, type Scanned, Unreadable } from './objects.js';
import type { Entry, Revision } from './xref.js';

/**
 * The document as it stood at the end of one revision: every object number resolved through the
 * cross-reference sections of that revision and the ones before it (a later section overrides an
 * earlier one), as a reader that opened the file at that length would see it. An object's value
 * (`object`) is parsed only when asked for; what it is and refers to (`scanned`, `refs`) is read
 * without building its values.
 */
export class State {
  readonly entries = new Map<number, Entry>();
  readonly trailer: PDFDict;
  private readonly memo = new Map<number, PDFObject | undefined>();

  constructor(
    private readonly reader: ObjectReader,
    revisions: readonly Revision[],
    /** The revision's number (1 for the original). */
    readonly upTo: number,
  ) {
    for (const revision of revisions.slice(0, upTo)) {
      for (const [num, entry] of revision.entries) this.entries.set(num, entry);
    }
    const last = revisions[upTo - 1];
    if (!last) throw new Unreadable(`no revision ${upTo}`);
    this.trailer = last.trailer;
  }

  /** Object `num`, or undefined when it is free or not listed. */
  object(num: number): PDFObject | undefined {
    if (this.memo.has(num)) return this.memo.get(num);
    const entry = this.entries.get(num);
    let value: PDFObject | undefined;
    if (entry?.kind === 'offset') value = this.reader.at(entry.offset, num).value;
    if (entry?.kind === 'compressed') {
      value = this.reader.inStream(this.holder(num, entry), entry.stream, entry.index, num);
    }
    this.memo.set(num, value);
    return value;
  }

  /** Object `num` scanned (its kind, keys, references, extent), or undefined when not in use. */
  scanned(num: number): Scanned | undefined {
    const entry = this.entries.get(num);
    if (entry?.kind === 'offset') return this.reader.scan(entry.offset, num);
    if (entry?.kind !== 'compressed') return undefined;
    return this.reader.scanInStream(this.holder(num, entry), entry.stream, entry.index, num);
  }

  /** The object stream holding a compressed object, parsed. */
  private holder(num: number, entry: Entry & { kind: 'compressed' }): PDFObject {
    // an object stream is never itself compressed: that would let a lookup loop
    const holder = this.entries.get(entry.stream);
    if (holder?.kind !== 'offset') throw new Unreadable(`object ${num} is in no object stream`);
    return this.reader.at(holder.offset, entry.stream).value;
  }

  /** The object numbers object `num` refers to (none when it is not in use). */
  refs(num: number): readonly number[] {
    return this.scanned(num)?.refs ?? [];
  }

  /** The object numbers held by object stream `num` (which must be one). */
  numbersIn(num: number): number[] {
    return this.reader.numbersIn(this.object(num), num);
  }

  /** Where object `num` lies in the file, when it is not in an object stream. */
  extent(num: number): { start: number; end: number } | undefined {
    const entry = this.entries.get(num);
    return entry?.kind === 'offset' ? this.reader.scan(entry.offset, num).extent : undefined;
  }

  /** A value with a reference resolved (one level). */
  resolve(value: PDFObject | undefined): PDFObject | undefined {
    return value instanceof PDFRef ? this.object(value.objectNumber) : value;
  }

  inUse(num: number): boolean {
    const entry = this.entries.get(num);
    return entry !== undefined && entry.kind !== 'free';
  }
}

/** Whether two objects are the same value (streams: the same dictionary and the same bytes). */
export function same(a: PDFObject | undefined, b: PDFObject | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a instanceof PDFRawStream || b instanceof PDFRawStream) {
    return (
      a instanceof PDFRawStream &&
      b instanceof PDFRawStream &&
      a.dict.toString() === b.dict.toString() &&
      equalBytes(a.contents, b.contents)
    );
  }
  return a.toString() === b.toString();
}

/**
 * Values one object may hold: each takes at least two bytes of an object read whole, so this only
 * states the bound the reader already sets (a font's /W array holds tens of thousands).
 */
const MAX_OBJECT_VALUES = MAX_OBJECT_BYTES / 2;

/** The object numbers a parsed value refers to, directly or inside its arrays and dictionaries. */
export function refsIn(value: PDFObject | undefined, limit = MAX_OBJECT_VALUES): number[] {
  const out: number[] = [];
  const todo: PDFObject[] = value ? [value] : [];
  let visited = 0;
  while (todo.length > 0) {
    if (++visited > limit) throw new Unreadable('an object holds too many values');
    const next = todo.pop() as PDFObject;
    if (next instanceof PDFRef) out.push(next.objectNumber);
    else if (next instanceof PDFArray) {
      // numbers refer to nothing: a font's /W array holds tens of thousands of them
      for (let i = 0, n = next.size(); i < n; i += 1) {
        const value = next.get(i);
        if (!(value instanceof PDFNumber)) todo.push(value);
      }
    } else if (next instanceof PDFDict) todo.push(...next.values());
    else if (next instanceof PDFRawStream) todo.push(...next.dict.values());
  }
  return out;
}

/** The object numbers reachable from `from` in `state` (itself included when a reference). */
export function reachable(state: State, from: PDFObject | undefined, limit = 4096): Set<number> {
  const seen = new Set<number>();
  const todo = refsIn(from);
  while (todo.length > 0) {
    const num = todo.pop() as number;
    if (seen.has(num) || !state.inUse(num)) continue;
    seen.add(num);
    if (seen.size > limit) throw new Unreadable('a structure of the PDF is too large');
    for (const ref of state.refs(num)) todo.push(ref);
  }
  return seen;
}

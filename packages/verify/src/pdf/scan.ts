import { MAX_OBJECT_DEPTH } from './nesting.js';
import {
  decodedName,
  isDigit,
  FALSE,
  literalEnd,
  nameEnd,
  NULL,
  numberAt,
  numberEnd,
  NUMERIC,
  ScanError,
  skipSpace,
  streamEnd,
  streamKeyword,
  TRUE,
  wordAt,
} from './syntax.js';

export { ScanError };

/**
 * One PDF value (ISO 32000-1 7.3) read the way pdf-lib's object parser reads it (PDFObjectParser
 * 1.17: its keywords, numbers, strings, names, arrays, dictionaries and streams, quirks included),
 * without building its values: how many bytes it takes, whether it is a dictionary or a stream, its
 * dictionary's keys, and the object numbers of the references it holds. A font's /W array of
 * 65,536 numbers is scanned without making 65,536 objects, so every object of a revision can be
 * read for its references (what the shadow-attack defence needs) and only the few whose values a
 * rule looks at are parsed (./objects.ts). The answer must be pdf-lib's for every input: the
 * `pdf-object-scan` fuzz target and test/pdf/scan.unit.test.ts compare the two.
 *
 * A reference is `N G R` where pdf-lib's parser reads it as one (comments may stand between its
 * parts), never inside a string, a comment, a name or a stream's data; a key given twice keeps
 * its last value only, as pdf-lib's dictionary does. Bounded: the bytes given (the caller's slice),
 * MAX_OBJECT_DEPTH nested arrays and dictionaries (pdf-lib's own parser would recurse until the
 * stack ends), and linear time (each byte is looked at a bounded number of times).
 */

export type ScanKind = 'dict' | 'stream' | 'other';

export interface ObjectScan {
  /** Bytes of the input the value takes (what pdf-lib's parser consumes reading it). */
  used: number;
  /** A dictionary (PDFDict), a stream (PDFRawStream) or any other value. */
  kind: ScanKind;
  /** The keys of a dictionary or of a stream's dictionary, as decoded names without the slash. */
  keys: ReadonlySet<string>;
  /** The object number of each reference in the value (a stream: in its dictionary). */
  refs: readonly number[];
}

const [SLASH, LT, GT, OPEN_PAREN, OPEN_BRACKET, CLOSE_BRACKET, R] = [47, 60, 62, 40, 91, 93, 82];

/** A dictionary being read: its keys so far (each with the refs its value added) and /Length. */
interface DictFrame {
  type: 'dict';
  seen: Map<string, { from: number; to: number }>;
  key: string;
  from: number;
  /** The last /Length given, when it is a direct number (what pdf-lib's stream reader uses). */
  length: number | undefined;
}
type Frame = DictFrame | { type: 'array' };

/** The value at the start of `bytes`; throws ScanError where pdf-lib's parser would throw. */
export function scanObject(bytes: Uint8Array): ObjectScan {
  return new Scanner(bytes).run();
}

class Scanner {
  private pos = 0;
  private readonly stack: Frame[] = [];
  private readonly refs: number[] = [];
  private dropped = false;
  private result: { kind: ScanKind; keys: ReadonlySet<string> } | undefined;
  /** The extent of the number read last (for a /Length). */
  private number: [number, number] = [0, 0];
  /** The extent of the last number read ahead (parseNumberOrRef's second number). */
  private lookahead: [number, number] = [-1, -1];

  constructor(private readonly b: Uint8Array) {}

  run(): ObjectScan {
    this.value();
    while (this.stack.length > 0) this.step();
    const { kind, keys } = this.result ?? { kind: 'other', keys: new Set() };
    const refs = this.dropped ? this.refs.filter((n) => !Number.isNaN(n)) : this.refs;
    return { used: this.pos, kind, keys, refs };
  }

  /** parseObject: one value from `pos`; containers are opened here and closed by `step`. */
  private value(): void {
    const b = this.b;
    const p = this.skip(this.pos);
    const c = b[p] ?? -1;
    if (NUMERIC[c]) return this.numberOrRef(p);
    const word = c === 0x74 ? TRUE : c === 0x66 ? FALSE : c === 0x6e ? NULL : undefined;
    if (word && wordAt(b, p, word)) {
      this.pos = p + word.length;
      return this.done('other');
    }
    if (c === LT && b[p + 1] === LT) return this.open(dictFrame(), p + 2);
    if (c === OPEN_BRACKET) return this.open({ type: 'array' }, p + 1);
    if (c === LT) {
      const end = b.indexOf(GT, p + 1);
      if (end < 0) throw new ScanError(false);
      this.pos = end + 1;
    } else if (c === OPEN_PAREN) this.pos = literalEnd(b, p);
    else if (c === SLASH) this.pos = nameEnd(b, p + 1);
    else throw new ScanError(false);
    this.done('other');
  }

  /** One turn of parseArray's or parseDict's loop, or its end. */
  private step(): void {
    const b = this.b;
    const frame = this.stack[this.stack.length - 1] as Frame;
    const p = this.pos;
    if (frame.type === 'array') {
      if (NUMERIC[b[p] ?? -1]) return this.numbers(p);
      if (b[p] !== CLOSE_BRACKET) return this.value();
      this.pos = p + 1;
      this.stack.pop();
      return this.done('other');
    }
    // pdf-lib's loop condition: not at the end, and neither this byte nor the next is '>'
    if (p < b.length && b[p] !== GT && b[p + 1] !== GT) {
      if (b[p] !== SLASH) throw new ScanError(false);
      const end = nameEnd(b, p + 1);
      frame.key = decodedName(b, p + 1, end);
      frame.from = this.refs.length;
      this.pos = end;
      return this.value();
    }
    const q = this.skip(p);
    if (b[q] !== GT || b[q + 1] !== GT) throw new ScanError(false);
    this.stack.pop();
    this.afterDict(frame, q + 2);
  }

  private open(frame: Frame, at: number): void {
    if (this.stack.length >= MAX_OBJECT_DEPTH) throw new ScanError(true);
    this.stack.push(frame);
    this.pos = this.skip(at);
  }

  /** A value ended at `pos`: its dictionary entry is recorded, the parser skips what follows. */
  private done(kind: ScanKind | 'number', dict?: DictFrame): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) {
      const keys = dict ? new Set(dict.seen.keys()) : new Set<string>();
      this.result = { kind: kind === 'number' ? 'other' : kind, keys };
      return;
    }
    if (frame.type === 'dict') {
      const earlier = frame.seen.get(frame.key);
      // a key given again replaces its value: the references of the first are not the dictionary's
      if (earlier) for (let i = earlier.from; i < earlier.to; i += 1) this.refs[i] = Number.NaN;
      this.dropped ||= earlier !== undefined && earlier.to > earlier.from;
      frame.seen.set(frame.key, { from: frame.from, to: this.refs.length });
      if (frame.key === 'Length') {
        frame.length = kind === 'number' ? numberAt(this.b, ...this.number) : undefined;
      }
    }
    this.pos = this.skip(this.pos);
  }

  /** parseDictOrStream after the dictionary: a stream when the keyword follows. */
  private afterDict(frame: DictFrame, at: number): void {
    const p = this.skip(at);
    this.pos = p;
    const keyword = streamKeyword(this.b, p);
    if (keyword === 0) return this.done('dict', frame);
    this.pos = streamEnd(this.b, p + keyword, frame.length);
    this.done('stream', frame);
  }

  /**
   * Elements of an array from `p` that are numbers or references, read as parseNumberOrRef reads
   * each (a number's lookahead is the next element), until one that is neither: a /W array of
   * tens of thousands of numbers is read in this loop alone.
   */
  private numbers(p: number): void {
    const b = this.b;
    let at = p;
    let end = numberEnd(b, p);
    let look = this.skip(end);
    for (;;) {
      if (!isDigit(b[look])) {
        this.pos = look;
        return;
      }
      const second = numberEnd(b, look);
      const r = this.skip(second);
      if (b[r] === R) {
        this.refs.push(numberAt(b, at, end));
        this.pos = this.skip(r + 1);
        return;
      }
      // the second number starts the next element, and what follows it is skipped already
      at = look;
      end = second;
      look = r;
    }
  }

  /** parseNumberOrRef: a number, or `N G R` (the lookahead may throw on a malformed second number). */
  private numberOrRef(p: number): void {
    // in a run of numbers each was read already as the lookahead of the one before it
    const first = this.lookahead[0] === p ? this.lookahead[1] : numberEnd(this.b, p);
    const look = this.skip(first);
    if (isDigit(this.b[look])) {
      const second = numberEnd(this.b, look);
      this.lookahead = [look, second];
      const r = this.skip(second);
      if (this.b[r] === R) {
        this.refs.push(numberAt(this.b, p, first));
        this.pos = r + 1;
        return this.done('other');
      }
    }
    this.number = [p, first];
    this.pos = look;
    this.done('number');
  }

  private skip(from: number): number {
    return skipSpace(this.b, from);
  }
}

const dictFrame = (): DictFrame => ({
  type: 'dict',
  seen: new Map(),
  key: '',
  from: 0,
  length: undefined,
});

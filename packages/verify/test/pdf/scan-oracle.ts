import {
  PDFArray,
  PDFContext,
  PDFDict,
  type PDFName,
  type PDFObject,
  PDFObjectParser,
  PDFRawStream,
} from 'pdf-lib';
import { MAX_OBJECT_DEPTH } from '../../src/pdf/nesting.js';
import { refsIn } from '../../src/pdf/state.js';
import { ScanError, scanObject, type ScanKind } from '../../src/pdf/scan.js';

/**
 * The object scanner's oracle: pdf-lib's own parser on the same bytes, its value's dictionary
 * keys and references read from the value it builds. The scanner must agree on every input: on
 * failing, on the bytes the value takes, on its kind, keys and references. The one difference
 * allowed is the scanner's depth bound: it refuses what nests deeper than MAX_OBJECT_DEPTH, where
 * pdf-lib recurses until it reads the value or its stack ends.
 */
export type Reading =
  | { ok: true; used: number; kind: ScanKind; keys: string[]; refs: number[]; depth?: number }
  | { ok: false; deep: boolean };

const sorted = (refs: readonly number[]): number[] => [...refs].sort((a, b) => a - b);

/** What pdf-lib's object parser makes of `bytes` (quietly: it warns of numbers past 2^53). */
export function parsedReading(bytes: Uint8Array): Reading {
  const parser = PDFObjectParser.forBytes(bytes, PDFContext.create());
  const warn = console.warn;
  let value: PDFObject;
  console.warn = () => undefined;
  try {
    value = parser.parseObject();
  } catch {
    return { ok: false, deep: false };
  } finally {
    console.warn = warn;
  }
  const used = (parser as unknown as { bytes: { offset(): number } }).bytes.offset();
  const dict = value instanceof PDFRawStream ? value.dict : value;
  const kind =
    value instanceof PDFRawStream ? 'stream' : value instanceof PDFDict ? 'dict' : 'other';
  const keys = dict instanceof PDFDict ? [...dict.keys()].map(nameText).sort() : [];
  return { ok: true, used, kind, keys, refs: sorted(refsIn(value)), depth: depthOf(value) };
}

/** What the scanner makes of `bytes`. */
export function scannedReading(bytes: Uint8Array): Reading {
  try {
    const scan = scanObject(bytes);
    const keys = [...scan.keys].sort();
    return { ok: true, used: scan.used, kind: scan.kind, keys, refs: sorted(scan.refs) };
  } catch (err) {
    if (err instanceof ScanError) return { ok: false, deep: err.deep };
    throw err;
  }
}

/** The scanner's reading of `bytes`; throws, naming both readings, where pdf-lib reads otherwise. */
export function agreedReading(bytes: Uint8Array): Reading {
  const parsed = parsedReading(bytes);
  const scanned = scannedReading(bytes);
  if (!scanned.ok && scanned.deep && (!parsed.ok || (parsed.depth ?? 0) > MAX_OBJECT_DEPTH)) {
    return scanned;
  }
  const expected = parsed.ok ? { ...parsed, depth: undefined } : { ok: false, deep: false };
  if (JSON.stringify(expected) !== JSON.stringify(scanned)) {
    const shown = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
    throw new Error(
      `the scanner reads ${JSON.stringify(shown)} as ${JSON.stringify(scanned)}, pdf-lib as ${JSON.stringify(expected)}`,
    );
  }
  return scanned;
}

/** A name's decoded text (decodeText() spreads a long name into one call, past the stack). */
const nameText = (name: PDFName): string => Buffer.from(name.asBytes()).toString('latin1');

/** How many arrays and dictionaries nest in a value (a stream counts as its dictionary). */
function depthOf(value: PDFObject): number {
  let deepest = 0;
  const todo: [PDFObject, number][] = [[value, 0]];
  while (todo.length > 0) {
    const [next, depth] = todo.pop() as [PDFObject, number];
    const inner = next instanceof PDFRawStream ? next.dict : next;
    if (!(inner instanceof PDFArray) && !(inner instanceof PDFDict)) continue;
    deepest = Math.max(deepest, depth + 1);
    const children = inner instanceof PDFArray ? inner.asArray() : [...inner.values()];
    for (const child of children) todo.push([child, depth + 1]);
  }
  return deepest;
}

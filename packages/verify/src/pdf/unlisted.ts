import { latin1, type ObjectReader } from './objects.js';
import type { State } from './state.js';
import type { Revision } from './xref.js';

/**
 * Bytes a reader that follows the cross-reference sections never looks at, but a reader that
 * scans the file for objects does (pdf-lib's parser, which reads the attachment and the printed
 * text, keeps the last `N G obj` it meets): an object in a revision after the signature that its
 * own section does not list would be seen by one and not the other, so it is a change by itself.
 * A signature dictionary no section lists means the sections were rewritten after signing.
 */

/** `/ByteRange` tokens in the raw file looked at (a receipt has one, each time-stamp one more). */
const MAX_RAW_SIGNATURES = 64;
/** Unlisted objects named in one report. */
const MAX_UNLISTED = 4;

const BYTE_RANGE = new TextEncoder().encode('/ByteRange');

/** The first offset from `from` where `word` occurs in `bytes`, or -1 (no text copy of the file). */
function find(bytes: Uint8Array, word: Uint8Array, from: number): number {
  const first = word[0] ?? 0;
  for (let at = bytes.indexOf(first, from); at >= 0; at = bytes.indexOf(first, at + 1)) {
    let i = 1;
    while (i < word.length && bytes[at + i] === word[i]) i += 1;
    if (i === word.length) return at;
  }
  return -1;
}

/** A `/ByteRange` in the file's bytes that no listed signature dictionary holds. */
export function unlistedSignature(
  file: Uint8Array,
  found: readonly { extent: { start: number; end: number } | undefined }[],
): string | undefined {
  let count = 0;
  for (let at = find(file, BYTE_RANGE, 0); at >= 0; at = find(file, BYTE_RANGE, at + 1)) {
    if (++count > MAX_RAW_SIGNATURES) return 'the PDF holds too many signature dictionaries';
    const listed = found.some((f) => f.extent && f.extent.start <= at && at < f.extent.end);
    if (!listed) {
      return `the signature dictionary at byte ${at} is listed by no revision (the revisions were rewritten after signing)`;
    }
  }
  return undefined;
}

/** Each `N G obj` in the revision's bytes that is not an object its section lists there. */
export function unlistedObjects(reader: ObjectReader, revision: Revision, state: State): string[] {
  const extents: { start: number; end: number }[] = [];
  for (const [num, entry] of revision.entries) {
    if (entry.kind !== 'offset') continue;
    const extent = state.extent(num);
    if (extent) extents.push(extent);
  }
  const text = latin1(reader.file.subarray(revision.start, revision.end));
  const out: string[] = [];
  for (const match of text.matchAll(
    /(?<![0-9])(\d{1,10})[\0\t\n\f\r ]+\d{1,5}[\0\t\n\f\r ]+obj\b/g,
  )) {
    const at = revision.start + (match.index ?? 0);
    const listed = at === revision.xrefAt || extents.some((e) => e.start <= at && at < e.end);
    if (!listed)
      out.push(
        `holds object ${match[1]} at byte ${at}, which its cross-reference section does not list`,
      );
    if (out.length === MAX_UNLISTED) break;
  }
  return out;
}

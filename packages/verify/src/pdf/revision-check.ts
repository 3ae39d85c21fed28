import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString } from 'pdf-lib';
import { referencedBy, reviewRevision, type Signed } from './changes.js';
import { docTimeStampProblem } from './doc-timestamp.js';
import { name, ObjectReader, Unreadable } from './objects.js';
import { rolesOf } from './roles.js';
import { unlistedObjects, unlistedSignature } from './unlisted.js';
import { checkCms, type PdfSignature, type RawPdfSignature } from './signature.js';
import { State } from './state.js';
import { readRevisions, type Revision } from './xref.js';

/**
 * The PDF signature judged on the whole file, revision by revision (ISO 32000-1 7.5.6, 12.8):
 * every signature dictionary any revision lists is found, not only those the last revision's form
 * still reaches, so a later revision cannot hide one by removing or retyping its field. The
 * service's signature (the first that is not a document time-stamp) must verify and end exactly
 * where a revision ends; every revision after that one may only add what PAdES allows a later
 * validator to add (./changes.ts). Anything else is `modified_after_signing`, naming the revision.
 */

/** Largest /Contents read (a signature with a chain and a time-stamp token is under 32 KiB). */
const MAX_CONTENTS_BYTES = 64 * 1024;
/** Violations named in one report. */
const MAX_NAMED = 6;

export interface Found {
  revision: number;
  num: number;
  dict: PDFDict;
  extent: { start: number; end: number } | undefined;
  timeStamp: boolean;
}

const failed = (reason: string, modified = false): PdfSignature => ({
  present: true,
  ok: false,
  reason,
  ...(modified ? { modified: true } : {}),
});

/** The file's signature, judged on every revision; never throws, whatever the bytes. */
export async function checkPdfRevisions(file: Uint8Array): Promise<PdfSignature> {
  try {
    return await judge(file);
  } catch (err) {
    const why = err instanceof Unreadable ? `: ${err.message}` : '';
    return failed(`the PDF's revisions cannot be read${why}`);
  }
}

async function judge(file: Uint8Array): Promise<PdfSignature> {
  const reader = new ObjectReader(file);
  const revisions = readRevisions(reader);
  const found = signatureDictionaries(reader, revisions);
  const unlisted = unlistedSignature(file, found);
  const approvals = found.filter((f) => !f.timeStamp);
  const service = approvals[0];
  if (!service) return unlisted ? failed(unlisted, true) : { present: false };
  if (approvals.filter((f) => f.revision === service.revision).length > 1) {
    return failed(`revision ${service.revision} holds more than one signature`);
  }
  const raw = rawSignature(service.dict);
  if (typeof raw === 'string') return failed(raw);
  const covered = coveredLength(raw.byteRange, service, file);
  if (typeof covered === 'string') return failed(covered, true);
  const total = revisions.length;
  const signedRevision = revisions.find((r) => r.end === covered);
  if (!signedRevision) {
    return failed(
      `the signature covers bytes 0-${covered}, which is not the end of a revision`,
      true,
    );
  }
  if (unlisted) return failed(unlisted, true);
  const later = reviewLater(reader, revisions, signedRevision, file.length);
  const stamps = found.filter((f) => f.timeStamp && f.revision > signedRevision.number);
  const problems = stamps.flatMap((f) => timeStampProblems(f, file, revisions));
  const all = [...later.violations, ...problems];
  if (all.length > 0) return failed(all.join('; '), true);
  const checked = await checkCms(raw, file);
  if (!checked.present || !checked.ok) return checked;
  const coverage =
    signedRevision.number === total && covered === file.length
      ? 'the whole file'
      : `revision ${signedRevision.number} of ${total} (bytes 0-${covered}); after it only ${later.additions.join(', ')}`;
  return { ...checked, coverage };
}

/** A later document time-stamp that does not cover its own revision, or not with a token over it. */
export function timeStampProblems(stamp: Found, file: Uint8Array, revisions: Revision[]): string[] {
  const where = `revision ${stamp.revision} of ${revisions.length}`;
  const raw = rawSignature(stamp.dict);
  if (typeof raw === 'string') return [`${where}: ${raw}`];
  const covered = coveredLength(raw.byteRange, stamp, file);
  const own = revisions[stamp.revision - 1]?.end;
  if (typeof covered === 'string' || covered !== own) {
    return [`${where} adds a document time-stamp that does not cover its own revision`];
  }
  const problem = docTimeStampProblem(raw, file);
  return problem ? [`${where} adds a document time-stamp that ${problem}`] : [];
}

/** Every dictionary with a /ByteRange that some revision lists, at the first revision listing it. */
export function signatureDictionaries(reader: ObjectReader, revisions: Revision[]): Found[] {
  const found: Found[] = [];
  const seen = new Set<string>();
  for (const revision of revisions) {
    const state = new State(reader, revisions, revision.number);
    for (const [num, entry] of revision.entries) {
      if (entry.kind === 'free') continue;
      // every object is scanned; only a dictionary with a /ByteRange key is parsed
      const scanned = state.scanned(num);
      if (scanned?.kind !== 'dict' || !scanned.keys.has('ByteRange')) continue;
      const value = state.object(num);
      if (!(value instanceof PDFDict) || !value.has(PDFName.of('ByteRange'))) continue;
      const extent = state.extent(num);
      const id = `${num}@${extent?.start ?? value.toString()}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const timeStamp =
        name(value, 'Type') === 'DocTimeStamp' || name(value, 'SubFilter') === 'ETSI.RFC3161';
      found.push({ revision: revision.number, num, dict: value, extent, timeStamp });
    }
  }
  return found;
}

export function rawSignature(dict: PDFDict): RawPdfSignature | string {
  const range = dict.get(PDFName.of('ByteRange'));
  const contents = dict.get(PDFName.of('Contents'));
  const numbers =
    range instanceof PDFArray && range.size() === 4
      ? range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : Number.NaN))
      : [];
  const bytes =
    contents instanceof PDFHexString || contents instanceof PDFString
      ? contents.asBytes()
      : undefined;
  if (numbers.length !== 4 || !bytes)
    return 'a PDF signature has no direct /ByteRange or /Contents';
  if (bytes.length > MAX_CONTENTS_BYTES) return 'a PDF signature is too large';
  return { byteRange: numbers, contents: bytes };
}

/**
 * `[0 a b c]`: from the start to the `<` of the dictionary's own /Contents, then from after its
 * `>` for c bytes. The gap must lie inside the signature dictionary, so nothing else is unsigned.
 */
export function coveredLength(
  range: readonly number[],
  sig: Found,
  file: Uint8Array,
): number | string {
  const [start, a = 0, b = 0, c = 0] = range;
  const whole = [a, b, c].every((n) => Number.isSafeInteger(n) && n > 0);
  const inside = sig.extent !== undefined && sig.extent.start < a && b < sig.extent.end;
  if (start !== 0 || !whole || !(a < b) || b + c > file.length || !inside) {
    return 'the signature does not cover the file from its first byte but its own /Contents';
  }
  if (file[a] !== 0x3c || file[b - 1] !== 0x3e)
    return "the signature's byte range does not frame its /Contents";
  return b + c;
}

/** Every revision after the signed one, reviewed; bytes after the last revision are named. */
export function reviewLater(
  reader: ObjectReader,
  revisions: Revision[],
  signedRevision: Revision,
  length: number,
  furtherSignatures = false,
): { violations: string[]; additions: string[] } {
  const total = revisions.length;
  const last = revisions[total - 1];
  const trailing =
    last && last.end < length ? [`bytes ${last.end}-${length} follow the last revision`] : [];
  // nothing follows the signed revision: no later change to review (and no object walk to pay)
  if (signedRevision.number === total) return { violations: trailing, additions: [] };
  const state = new State(reader, revisions, signedRevision.number);
  const root = state.trailer.get(PDFName.of('Root'));
  if (!(root instanceof PDFRef)) throw new Unreadable('the signed revision has no catalog');
  const signed: Signed = {
    state,
    roles: rolesOf(state, root.objectNumber),
    root: root.objectNumber,
    referenced: referencedBy(state),
    furtherSignatures,
    laterReferences: new Set(),
  };
  const violations: string[] = [];
  const additions: string[] = [];
  let prev = state;
  for (const revision of revisions.slice(signedRevision.number)) {
    const cur = new State(reader, revisions, revision.number);
    const review = reviewRevision(prev, cur, revision, signed);
    review.violations.push(...unlistedObjects(reader, revision, cur));
    const where = `revision ${revision.number} of ${total} (bytes ${revision.start}-${revision.end})`;
    if (review.violations.length > 0) violations.push(`${where} ${named(review.violations)}`);
    additions.push(...review.additions.map((a) => `revision ${revision.number} adds ${a}`));
    if (review.violations.length === 0 && review.additions.length === 0) {
      additions.push(`revision ${revision.number} changes nothing`);
    }
    prev = cur;
  }
  violations.push(...trailing);
  return { violations, additions };
}

function named(list: string[]): string {
  const shown = list.slice(0, MAX_NAMED).join(', ');
  return list.length > MAX_NAMED ? `${shown} and ${list.length - MAX_NAMED} more` : shown;
}

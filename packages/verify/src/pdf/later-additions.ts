import { PDFDict, PDFName, type PDFObject, PDFRawStream } from 'pdf-lib';
import { kindOf } from './change-text.js';
import { dictOf, elements, keysOf, name, refNum } from './objects.js';
import type { Change } from './revision-diff.js';
import { reachable, same, type State } from './state.js';

/**
 * What a revision after the signed one may add or change, rule by rule (ETSI EN 319 142-1 5.4,
 * 5.5; ISO 32000-1 12.8.2.2 for further signatures): the catalog's entries other than /DSS,
 * /Extensions and /AcroForm left alone; the AcroForm changed only by appending to /Fields
 * invisible document time-stamp fields (or, where allowed, signature fields); new objects only as
 * parts of a DSS or of such a field; a page or its annotation list changed only by appending
 * those fields' widgets.
 */

const key = (k: string): PDFName => PDFName.of(k);

/** The catalog's entries that changed, each named, but for /DSS, /Extensions and the AcroForm. */
export function catalogChanges(before: PDFDict, after: PDFDict): string[] {
  const out: string[] = [];
  for (const k of keysOf(before, after)) {
    if (same(before.get(key(k)), after.get(key(k))) || k === 'DSS' || k === 'Extensions') continue;
    if (k === 'AcroForm' && after.has(key(k))) continue; // its content is judged by reviewForm
    const verb = !after.has(key(k)) ? 'removes' : !before.has(key(k)) ? 'adds' : 'changes';
    out.push(`${verb} the catalog's /${k}`);
  }
  return out;
}

export interface FormReview {
  /** Changes to the form a later validator may not make. */
  violations: string[];
  /** The fields the revision adds that PAdES allows, for the report. */
  additions: string[];
  /** Objects judged here: the AcroForm and its field list. */
  handled: Set<number>;
  /** New objects of the document time-stamps' fields (field, widget, value, appearance). */
  parts: Set<number>;
}

export function reviewForm(
  prev: State,
  cur: State,
  catBefore: PDFDict,
  catAfter: PDFDict,
  furtherSignatures: boolean,
): FormReview {
  const review: FormReview = {
    violations: [],
    additions: [],
    handled: new Set(),
    parts: new Set(),
  };
  const ref = catAfter.get(key('AcroForm'));
  const before = dictOf(prev.resolve(catBefore.get(key('AcroForm'))));
  const after = dictOf(cur.resolve(ref));
  if (refNum(ref) !== undefined) review.handled.add(refNum(ref) as number);
  if (!after) {
    if (ref !== undefined) review.violations.push('replaces the AcroForm with something else');
    return review;
  }
  for (const k of before ? keysOf(before, after) : []) {
    if (k !== 'Fields' && !same(before?.get(key(k)), after.get(key(k)))) {
      review.violations.push(`changes the AcroForm's /${k}`);
    }
  }
  const fieldsRef = after.get(key('Fields'));
  if (refNum(fieldsRef) !== undefined) review.handled.add(refNum(fieldsRef) as number);
  const old = elements(prev.resolve(before?.get(key('Fields'))));
  const now = elements(cur.resolve(fieldsRef));
  if (now.length < old.length || old.some((f, i) => !same(f, now[i]))) {
    const what =
      now.length < old.length
        ? `removes fields (${old.length} before, ${now.length} now)`
        : 'replaces fields';
    review.violations.push(`${what} in the AcroForm's /Fields`);
    return review;
  }
  for (const field of now.slice(old.length, old.length + 64)) {
    const num = refNum(field);
    const problem =
      num === undefined || prev.inUse(num) ? 'is not a new object' : timeStampProblem(cur, num);
    const signature =
      problem !== undefined && num !== undefined && furtherSignatures && !prev.inUse(num)
        ? signatureField(cur, num)
        : false;
    if (problem && !signature) {
      review.violations.push(`adds a form field${num ? ` (object ${num})` : ''} that ${problem}`);
      continue;
    }
    for (const part of reachable(cur, field)) if (!prev.inUse(part)) review.parts.add(part);
    review.additions.push(
      signature
        ? `a signature (field object ${num})`
        : `a document time-stamp (field object ${num})`,
    );
  }
  return review;
}

/** Why field `num` is not an invisible document time-stamp field, or undefined when it is one. */
function timeStampProblem(cur: State, num: number): string | undefined {
  const field = dictOf(cur.object(num));
  if (!field || name(field, 'FT') !== 'Sig') return 'is not a signature field';
  const value = dictOf(cur.resolve(field.get(key('V'))));
  if (
    !value ||
    name(value, 'Type') !== 'DocTimeStamp' ||
    name(value, 'SubFilter') !== 'ETSI.RFC3161'
  ) {
    return 'is not a document time-stamp (/Type /DocTimeStamp, /SubFilter /ETSI.RFC3161)';
  }
  const widgets = [
    field,
    ...elements(cur.resolve(field.get(key('Kids')))).map((k) => dictOf(cur.resolve(k))),
  ];
  for (const widget of widgets.slice(0, 16)) {
    const rect = elements(cur.resolve(widget?.get(key('Rect')))).map((n) => Number(n.toString()));
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = rect;
    if (rect.length > 0 && x1 !== x2 && y1 !== y2) return 'is visible on a page';
  }
  return undefined;
}

/** Whether field `num` is a signature field whose value is a signature dictionary. */
function signatureField(cur: State, num: number): boolean {
  const field = dictOf(cur.object(num));
  if (!field || name(field, 'FT') !== 'Sig') return false;
  const value = dictOf(cur.resolve(field.get(key('V'))));
  return (
    value !== undefined && value.has(key('ByteRange')) && name(value, 'Type') !== 'DocTimeStamp'
  );
}

/**
 * Why a new object is not allowed, or undefined when it is part of the DSS or of a document
 * time-stamp's field; `referenced` is what the signed document refers to.
 */
export function newObject(
  change: Change,
  referenced: Set<number>,
  dss: Set<number>,
  parts: Set<number>,
): string | undefined {
  const { num } = change;
  if (referenced.has(num)) return `fills in object ${num}, which the signed document refers to`;
  if (dss.has(num) || parts.has(num)) return undefined;
  return `adds object ${num} (${kindOf(change.after())}), part of neither a DSS nor a document time-stamp`;
}

/** A page, or its annotation list, changed only by appending the time-stamp's widgets. */
export function annotsExtended(
  prev: State,
  cur: State,
  change: Change,
  parts: Set<number>,
): boolean {
  const { before } = change;
  const after = change.after();
  let old: PDFObject[];
  let now: PDFObject[];
  const a = dictOf(before);
  const b = dictOf(after);
  if (a && b && !(before instanceof PDFRawStream) && !(after instanceof PDFRawStream)) {
    if (keysOf(a, b).some((k) => k !== 'Annots' && !same(a.get(key(k)), b.get(key(k)))))
      return false;
    old = elements(prev.resolve(a.get(key('Annots'))));
    now = elements(cur.resolve(b.get(key('Annots'))));
  } else {
    old = elements(before);
    now = elements(after);
    if (old.length === 0) return false;
  }
  if (now.length <= old.length || old.some((x, i) => !same(x, now[i]))) return false;
  return now.slice(old.length).every((x) => parts.has(refNum(x) ?? -1));
}

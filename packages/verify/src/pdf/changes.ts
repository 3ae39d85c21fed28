import { PDFDict, PDFName, type PDFObject, PDFRawStream, PDFRef } from 'pdf-lib';
import { dictOf, elements, name } from './objects.js';
import type { Roles } from './roles.js';
import { reachable, refsIn, same, type State } from './state.js';
import type { Revision } from './xref.js';

/**
 * What one revision after the signed one changes, judged against what PAdES lets a later
 * validator add (ETSI EN 319 142-1 5.4, 5.5): a DSS dictionary and its VRI dictionaries and
 * certificate, CRL and OCSP streams; a document time-stamp (a new invisible signature field whose
 * value is a /DocTimeStamp, /SubFilter /ETSI.RFC3161), the AcroForm's /Fields extended with it
 * and a page's /Annots with its widget; the catalog changed only in /DSS, /Extensions or its
 * /AcroForm reference. Every other added, changed or freed object is named.
 */

/** The signed document: its state, what its objects are, its catalog, the numbers it refers to. */
export interface Signed {
  state: State;
  roles: Roles;
  root: number;
  referenced: Set<number>;
  /**
   * Further approval signatures are allowed too (a document several parties sign in turn, ISO
   * 32000-1 12.8.2.2 DocMDP P 2 and 3): a new signature field whose value is a signature
   * dictionary, its widget appended to a page's annotations, visible or not.
   */
  furtherSignatures?: boolean;
  /** The numbers the objects of the revisions reviewed so far refer to (filled in by the review). */
  laterReferences?: Set<number>;
}

export interface Review {
  /** Changes a later validator may not make, each one phrase ("changes page 1's content"). */
  violations: string[];
  /** What the revision adds that PAdES allows, for the report. */
  additions: string[];
}

/**
 * An object the revision lists with another value: `before` is its value in the previous state,
 * `after` its value now. A new object that is no stream is parsed only when a rule names what it
 * is: most new objects are judged by their number and references alone.
 */
interface Change {
  num: number;
  before: PDFObject | undefined;
  after: () => PDFObject | undefined;
}

const key = (k: string): PDFName => PDFName.of(k);
const refNum = (v: PDFObject | undefined): number | undefined =>
  v instanceof PDFRef ? v.objectNumber : undefined;

export function reviewRevision(
  prev: State,
  cur: State,
  revision: Revision,
  signed: Signed,
): Review {
  const violations: string[] = [];
  const additions: string[] = [];
  const root = refNum(cur.trailer.get(key('Root')));
  if (root !== signed.root) violations.push(`replaces the catalog (object ${signed.root})`);
  const before = dictOf(prev.object(signed.root));
  const after = dictOf(cur.object(signed.root));
  if (!before || !after) return { violations: [...violations, 'removes the catalog'], additions };
  const changes = changed(prev, cur, revision, signed, violations);
  if (changes.length === 0) return { violations, additions };
  const dss = reachable(cur, after.get(key('DSS')));
  const dssBefore = reachable(prev, before.get(key('DSS')));
  if (dss.size > 0 && !same(before.get(key('DSS')), after.get(key('DSS'))))
    additions.push('a DSS dictionary');
  const form = reviewForm(prev, cur, before, after, signed.furtherSignatures === true);
  violations.push(...form.violations);
  additions.push(...form.additions);
  // what refers to an object now: the signed document, or an object a later revision wrote
  const later = signed.laterReferences;
  if (later) {
    for (const c of changes) for (const ref of cur.refs(c.num)) later.add(ref);
    for (const ref of refsIn(cur.trailer)) later.add(ref);
  }
  for (const change of changes) {
    const { num } = change;
    if (num === signed.root) violations.push(...catalogChanges(before, after));
    else if (form.handled.has(num)) continue;
    else if (change.before === undefined) {
      const problem = newObject(change, signed, dss, form.parts);
      // signing software leaves objects nothing refers to (poppler: unused appearance streams)
      const orphan =
        signed.furtherSignatures && !signed.referenced.has(num) && later && !later.has(num);
      if (problem && orphan) additions.push(`object ${num}, which nothing refers to`);
      else if (problem) violations.push(problem);
    } else if (!signed.state.inUse(num) && dss.has(num) && dssBefore.has(num)) continue;
    else if (!annotsExtended(prev, cur, change, form.parts))
      violations.push(describe(change, signed));
  }
  return { violations, additions };
}

/** The objects the revision lists with another value than before; freed objects are violations. */
function changed(
  prev: State,
  cur: State,
  revision: Revision,
  signed: Signed,
  out: string[],
): Change[] {
  const changes: Change[] = [];
  for (const [num, entry] of revision.entries) {
    if (num === 0) continue;
    const before = prev.object(num);
    if (entry.kind === 'free') {
      if (before !== undefined) out.push(`deletes ${roleOf(num, signed)}`);
      continue;
    }
    // a new object that is no stream is no cross-reference or object stream either, and differs
    // from nothing: its value waits until a rule asks for it
    if (before === undefined && cur.scanned(num)?.kind !== 'stream') {
      changes.push({ num, before, after: () => cur.object(num) });
      continue;
    }
    const after = cur.object(num);
    if (same(before, after)) continue;
    // cross-reference and object streams only carry the objects they list, each judged itself;
    // an object stream must hold no object its section does not list there (a reader that
    // scans the file would take it, one that follows the sections would not)
    if (structural(after) && (before === undefined || structural(before))) {
      if (after instanceof PDFRawStream && name(after.dict, 'Type') === 'ObjStm') {
        out.push(...unlistedIn(cur, num, revision));
      }
      continue;
    }
    changes.push({ num, before, after: () => after });
  }
  return changes;
}

function unlistedIn(cur: State, streamNum: number, revision: Revision): string[] {
  const out: string[] = [];
  cur.numbersIn(streamNum).forEach((num, index) => {
    const entry = revision.entries.get(num);
    const listed =
      entry?.kind === 'compressed' && entry.stream === streamNum && entry.index === index;
    if (!listed && out.length < 4) {
      out.push(`holds object ${num} in object stream ${streamNum}, unlisted there by its section`);
    }
  });
  return out;
}

const structural = (v: PDFObject | undefined): boolean =>
  v instanceof PDFRawStream && ['XRef', 'ObjStm'].includes(name(v.dict, 'Type') ?? '');

function catalogChanges(before: PDFDict, after: PDFDict): string[] {
  const out: string[] = [];
  for (const k of keysOf(before, after)) {
    if (same(before.get(key(k)), after.get(key(k))) || k === 'DSS' || k === 'Extensions') continue;
    if (k === 'AcroForm' && after.has(key(k))) continue; // its content is judged by reviewForm
    const verb = !after.has(key(k)) ? 'removes' : !before.has(key(k)) ? 'adds' : 'changes';
    out.push(`${verb} the catalog's /${k}`);
  }
  return out;
}

function keysOf(a: PDFDict, b: PDFDict): string[] {
  const names = new Set([...a.keys(), ...b.keys()].map((k) => k.decodeText()));
  return [...names].slice(0, 256);
}

interface FormReview extends Review {
  /** Objects judged here: the AcroForm and its field list. */
  handled: Set<number>;
  /** New objects of the document time-stamps' fields (field, widget, value, appearance). */
  parts: Set<number>;
}

function reviewForm(
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

function newObject(
  change: Change,
  signed: Signed,
  dss: Set<number>,
  parts: Set<number>,
): string | undefined {
  const { num } = change;
  if (signed.referenced.has(num))
    return `fills in object ${num}, which the signed document refers to`;
  if (dss.has(num) || parts.has(num)) return undefined;
  return `adds object ${num} (${kindOf(change.after())}), part of neither a DSS nor a document time-stamp`;
}

/** A page, or its annotation list, changed only by appending the time-stamp's widgets. */
function annotsExtended(prev: State, cur: State, change: Change, parts: Set<number>): boolean {
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

function roleOf(num: number, signed: Signed): string {
  return `${signed.roles.get(num) ?? 'an object'} (object ${num})`;
}

function describe(change: Change, signed: Signed): string {
  const { num, before } = change;
  const after = change.after();
  const role = signed.roles.get(num) ?? 'an object';
  const a = dictOf(before);
  const b = dictOf(after);
  if (!a || !b) return `changes ${role} (object ${num})`;
  const keys = keysOf(a, b).filter((k) => !same(a.get(key(k)), b.get(key(k))));
  if (/^page \d+$/.test(role) && keys.includes('Contents'))
    return `changes ${role}'s content (object ${num}'s /Contents)`;
  const what =
    keys.length > 0
      ? `: ${keys
          .slice(0, 4)
          .map((k) => `/${k}`)
          .join(', ')}`
      : '';
  const data = before instanceof PDFRawStream && keys.length === 0 ? ': its data' : '';
  return `changes ${role} (object ${num}${what || data})`;
}

function kindOf(value: PDFObject | undefined): string {
  const dict = dictOf(value);
  const type = dict ? (name(dict, 'Type') ?? name(dict, 'Subtype')) : undefined;
  const shape = value instanceof PDFRawStream ? 'stream' : dict ? 'dictionary' : 'value';
  return type ? `a /${type.replace(/[^\w.-]/g, '?').slice(0, 40)} ${shape}` : `a ${shape}`;
}

export const referencedBy = (state: State): Set<number> => {
  const out = new Set<number>();
  for (const num of state.entries.keys()) {
    for (const ref of state.refs(num)) out.add(ref);
  }
  return out;
};

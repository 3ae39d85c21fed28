import { PDFName } from 'pdf-lib';
import { describe } from './change-text.js';
import { annotsExtended, catalogChanges, newObject, reviewForm } from './later-additions.js';
import { dictOf, refNum } from './objects.js';
import type { Roles } from './roles.js';
import { changedObjects } from './revision-diff.js';
import { reachable, refsIn, same, type State } from './state.js';
import type { Revision } from './xref.js';

/**
 * What one revision after the signed one changes, judged against what PAdES lets a later
 * validator add (ETSI EN 319 142-1 5.4, 5.5): a DSS dictionary and its VRI dictionaries and
 * certificate, CRL and OCSP streams; a document time-stamp (a new invisible signature field whose
 * value is a /DocTimeStamp, /SubFilter /ETSI.RFC3161), the AcroForm's /Fields extended with it
 * and a page's /Annots with its widget; the catalog changed only in /DSS, /Extensions or its
 * /AcroForm reference. Every other added, changed or freed object is named.
 *
 * Which objects a revision changes is ./revision-diff.ts, the rules for what it may add are
 * ./later-additions.ts, and the phrases that name a change are ./change-text.ts.
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

const key = (k: string): PDFName => PDFName.of(k);

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
  const changes = changedObjects(prev, cur, revision, signed.roles, violations);
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
      const problem = newObject(change, signed.referenced, dss, form.parts);
      // signing software leaves objects nothing refers to (poppler: unused appearance streams)
      const orphan =
        signed.furtherSignatures && !signed.referenced.has(num) && later && !later.has(num);
      if (problem && orphan) additions.push(`object ${num}, which nothing refers to`);
      else if (problem) violations.push(problem);
    } else if (!signed.state.inUse(num) && dss.has(num) && dssBefore.has(num)) continue;
    else if (!annotsExtended(prev, cur, change, form.parts))
      violations.push(describe(change, signed.roles));
  }
  return { violations, additions };
}

/** The numbers the objects of `state` refer to. */
export const referencedBy = (state: State): Set<number> => {
  const out = new Set<number>();
  for (const num of state.entries.keys()) {
    for (const ref of state.refs(num)) out.add(ref);
  }
  return out;
};

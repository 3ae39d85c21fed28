import { type PDFObject, PDFRawStream } from 'pdf-lib';
import { name } from './objects.js';
import type { Roles } from './roles.js';
import { same, type State } from './state.js';
import type { Revision } from './xref.js';

/**
 * The objects one revision lists with another value than the state before it had: what the rules
 * of ./changes.ts then judge. Cross-reference and object streams are left out (each object they
 * carry is judged itself), and a freed object of the signed document is named at once.
 */

/**
 * An object the revision lists with another value: `before` is its value in the previous state,
 * `after` its value now. A new object that is no stream is parsed only when a rule names what it
 * is: most new objects are judged by their number and references alone.
 */
export interface Change {
  num: number;
  before: PDFObject | undefined;
  after: () => PDFObject | undefined;
}

/** The objects the revision lists with another value than before; freed objects are violations. */
export function changedObjects(
  prev: State,
  cur: State,
  revision: Revision,
  roles: Roles,
  out: string[],
): Change[] {
  const changes: Change[] = [];
  for (const [num, entry] of revision.entries) {
    if (num === 0) continue;
    const before = prev.object(num);
    if (entry.kind === 'free') {
      if (before !== undefined) out.push(`deletes ${roleOf(num, roles)}`);
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

/** An object of the signed document by what it is: "page 1's content (object 7)". */
function roleOf(num: number, roles: Roles): string {
  return `${roles.get(num) ?? 'an object'} (object ${num})`;
}

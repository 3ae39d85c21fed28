import { PDFName, type PDFObject, PDFRawStream } from 'pdf-lib';
import { dictOf, keysOf, name } from './objects.js';
import type { Roles } from './roles.js';
import { same } from './state.js';
import type { Change } from './revision-diff.js';

/**
 * How a change a later validator may not make is named in the report: by what the object is in
 * the signed document (./roles.ts) and which of its keys changed ("changes page 1's content
 * (object 7's /Contents)"), and a new object by its type and shape.
 */

const key = (k: string): PDFName => PDFName.of(k);

export function describe(change: Change, roles: Roles): string {
  const { num, before } = change;
  const after = change.after();
  const role = roles.get(num) ?? 'an object';
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

/** A new object's type and shape: "a /Annot dictionary", "a stream". */
export function kindOf(value: PDFObject | undefined): string {
  const dict = dictOf(value);
  const type = dict ? (name(dict, 'Type') ?? name(dict, 'Subtype')) : undefined;
  const shape = value instanceof PDFRawStream ? 'stream' : dict ? 'dictionary' : 'value';
  return type ? `a /${type.replace(/[^\w.-]/g, '?').slice(0, 40)} ${shape}` : `a ${shape}`;
}

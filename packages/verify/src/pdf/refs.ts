import { PDFArray, PDFDict, PDFNumber, type PDFObject, PDFRawStream, PDFRef } from 'pdf-lib';
import { Unreadable } from './unreadable.js';

/**
 * Values one object may hold: each takes at least two bytes of an object read whole (at most
 * MAX_OBJECT_BYTES of ./objects.ts, 1 MiB), so this only states the bound the reader already sets
 * (a font's /W array holds tens of thousands).
 */
const MAX_OBJECT_VALUES = 512 * 1024;

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

/**
 * The notary's name and commission number as a notarial certificate prints them ("Notary Public:
 * Jane Q Public", "Jane Q Public, Notary Public", "Commission No. TX-1234567"), found in the text
 * a document's pages print. A reading aid for `ocr.consistency`, like OCR: what it finds is
 * compared and reported, never proof. Bounded: the first MAX_LINES lines, each cut at
 * MAX_LINE_CHARS, matched by patterns without nested repetition.
 */

const MAX_LINES = 5_000;
const MAX_LINE_CHARS = 300;

export interface NotarialText {
  notaryName?: string;
  commissionId?: string;
}

const COMMISSION =
  /\bcommission\s*(?:no\.?|number|id|#)\s*[:#.]?\s*([A-Za-z0-9][A-Za-z0-9-]{1,40})/i;
// a name in any script's letters (Renée, Muñoz, O’Connor), as the registry may hold it
const NAME_AFTER = /\bnotary(?:\s+public)?\s*[:\-–]\s*(\p{L}[\p{L}\p{M} .'’-]{1,80})$/iu;
const NAME_BEFORE = /^(\p{L}[\p{L}\p{M} .'’-]{1,80}?),\s*notary\s+public\b/iu;

export function notarialText(text: string): NotarialText {
  const found: NotarialText = {};
  const lines = text.split('\n', MAX_LINES);
  for (const full of lines) {
    const line = full.slice(0, MAX_LINE_CHARS).trim();
    if (found.commissionId === undefined) {
      const id = COMMISSION.exec(line)?.[1];
      if (id) found.commissionId = id;
    }
    if (found.notaryName === undefined) {
      const name = (NAME_AFTER.exec(line)?.[1] ?? NAME_BEFORE.exec(line)?.[1])?.trim();
      if (name) found.notaryName = name;
    }
    if (found.commissionId !== undefined && found.notaryName !== undefined) break;
  }
  return found;
}

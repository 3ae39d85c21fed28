import { loadPdf } from '../pdf/load.js';
import { printedText } from '../pdf/pages.js';

/**
 * The text a PDF's pages print, one line per text line, read with the verifier's bounded loader
 * and content reader (the receipt's own printed text is read the same way). Bytes map to
 * characters as the standard fonts encode them (WinAnsi); text in fonts with other encodings reads
 * as what those bytes would be, so a caller matches it, never trusts it.
 */
export type DocumentText = { ok: true; text: string } | { ok: false; reason: string };

export async function documentText(file: Uint8Array): Promise<DocumentText> {
  const loaded = await loadPdf(file);
  if (!loaded.ok) return loaded;
  try {
    return printedText(loaded.catalog);
  } catch {
    return { ok: false, reason: "the PDF's pages cannot be read" };
  }
}

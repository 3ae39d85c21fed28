import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
} from 'pdf-lib';
import { BUNDLE_ATTACHMENT_NAME } from './bundle.js';

/**
 * The receipt bundle attached to a PDF receipt (an embedded file named receipt-bundle.json in the
 * document's EmbeddedFiles name tree, ISO 32000-1 §7.11.4), read with pdf-lib so it works the
 * same in Node and the browser.
 */
export type Attachment = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/** Largest PDF read (bytes) and name-tree nodes visited: bounded work for hostile files. */
export const MAX_PDF_BYTES = 50 * 1024 * 1024;
const MAX_TREE_NODES = 1_000;

export const isPdf = (bytes: Uint8Array): boolean =>
  bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';

export async function bundleFromPdf(bytes: Uint8Array): Promise<Attachment> {
  if (bytes.length > MAX_PDF_BYTES) return { ok: false, reason: 'PDF larger than 50 MiB' };
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch {
    return { ok: false, reason: 'not a readable PDF' };
  }
  const names = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const spec = tree ? findInTree(tree, BUNDLE_ATTACHMENT_NAME, { visited: 0 }) : undefined;
  if (!spec) return { ok: false, reason: `the PDF has no ${BUNDLE_ATTACHMENT_NAME} attachment` };
  const ef = spec.lookupMaybe(PDFName.of('EF'), PDFDict);
  const stream = ef?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream))
    return { ok: false, reason: `${BUNDLE_ATTACHMENT_NAME} has no embedded stream` };
  try {
    return { ok: true, bytes: decodePDFRawStream(stream).decode() };
  } catch {
    return { ok: false, reason: `${BUNDLE_ATTACHMENT_NAME} cannot be decoded` };
  }
}

/** The file specification named `name` in a name tree (leaf `Names` or intermediate `Kids`). */
function findInTree(node: PDFDict, name: string, budget: { visited: number }): PDFDict | undefined {
  if (++budget.visited > MAX_TREE_NODES) return undefined;
  const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
  for (let i = 0; pairs && i + 1 < pairs.size(); i += 2) {
    const key = pairs.lookup(i);
    const text =
      key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : undefined;
    if (text === name) return pairs.lookupMaybe(i + 1, PDFDict);
  }
  const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
  for (let i = 0; kids && i < kids.size(); i += 1) {
    const kid = kids.lookupMaybe(i, PDFDict);
    const found = kid ? findInTree(kid, name, budget) : undefined;
    if (found) return found;
  }
  return undefined;
}

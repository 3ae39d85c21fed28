import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import { BUNDLE_ATTACHMENT_NAME } from '../bundle.js';
import { decodeBounded } from './decode.js';
import { loadPdf } from './load.js';
import { printedText } from './pages.js';

/**
 * A PDF receipt, read with pdf-lib so it works the same in Node and the browser: the bundle
 * attached as the embedded file named receipt-bundle.json (EmbeddedFiles name tree, ISO 32000-1
 * §7.11.4), and the text printed on its pages. Every step is bounded for hostile files.
 */
export type PdfReceipt =
  | {
      ok: true;
      bundle: Uint8Array;
      printed: { text: string };
    }
  | { ok: false; reason: string };

/**
 * Largest PDF read. pdf-lib parses the whole file into objects, ~40 times its size in memory for
 * dense PDF syntax, so this bounds the parse; a receipt is the compressed bundle plus a few pages.
 */
export const MAX_PDF_BYTES = 6 * 1024 * 1024;
/** Name-tree nodes visited and entries compared. */
const MAX_TREE_NODES = 1_000;
const MAX_TREE_ENTRIES = 10_000;

export const isPdf = (bytes: Uint8Array): boolean =>
  bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';

const mib = (bytes: number): string => `${bytes / 1024 / 1024} MiB`;

/** The attached bundle (at most `maxBundleBytes` once decoded) and the printed text. */
export async function readPdfReceipt(
  bytes: Uint8Array,
  maxBundleBytes: number,
): Promise<PdfReceipt> {
  if (bytes.length > MAX_PDF_BYTES) {
    return { ok: false, reason: `PDF larger than ${mib(MAX_PDF_BYTES)}` };
  }
  const loaded = await loadPdf(bytes);
  if (!loaded.ok) return loaded;
  const bundle = attachedBundle(loaded.catalog, maxBundleBytes);
  if (!bundle.ok) return bundle;
  const printed = printedText(loaded.catalog);
  if (!printed.ok) return printed;
  return {
    ok: true,
    bundle: bundle.bytes,
    printed: { text: printed.text },
  };
}

type Attachment = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

function attachedBundle(catalog: PDFDict, maxBytes: number): Attachment {
  const names = catalog.lookup(PDFName.of('Names'));
  const tree = names instanceof PDFDict ? names.lookup(PDFName.of('EmbeddedFiles')) : undefined;
  const found = tree instanceof PDFDict ? findNamed(tree, BUNDLE_ATTACHMENT_NAME) : [];
  if (typeof found === 'string') return { ok: false, reason: found };
  if (found.length === 0) {
    return { ok: false, reason: `the PDF has no ${BUNDLE_ATTACHMENT_NAME} attachment` };
  }
  if (found.length > 1) {
    return { ok: false, reason: `the PDF has more than one ${BUNDLE_ATTACHMENT_NAME} attachment` };
  }
  const spec = found[0];
  const ef = spec instanceof PDFDict ? spec.lookup(PDFName.of('EF')) : undefined;
  const stream = ef instanceof PDFDict ? ef.lookup(PDFName.of('F')) : undefined;
  if (!(stream instanceof PDFRawStream)) {
    return { ok: false, reason: `${BUNDLE_ATTACHMENT_NAME} has no embedded stream` };
  }
  const decoded = decodeBounded(stream, maxBytes);
  if (decoded.ok) return decoded;
  if (decoded.error === 'too-large') {
    return { ok: false, reason: `bundle larger than ${mib(maxBytes)}` };
  }
  return { ok: false, reason: `${BUNDLE_ATTACHMENT_NAME} cannot be read: ${decoded.detail}` };
}

/** Longest name-tree key compared: the bundle's name, UTF-16 with its byte-order mark, fits. */
const MAX_KEY_BYTES = 256;

/**
 * A name-tree key as text. pdf-lib decodes a string by spreading its characters into one call,
 * which overflows the stack past ~100,000 of them: a longer key is no name this reader looks for.
 */
function keyText(key: unknown): string {
  if (!(key instanceof PDFString || key instanceof PDFHexString)) return '';
  return key.asBytes().length <= MAX_KEY_BYTES ? key.decodeText() : '';
}

/**
 * The values of every entry called exactly `name` in a name tree (leaf /Names pairs, node /Kids),
 * found by name, never by position. The whole tree is read, within bounds, so that a second
 * entry of the same name is seen and refused rather than shadowed.
 */
function findNamed(root: PDFDict, name: string): unknown[] | string {
  const found: unknown[] = [];
  const seen = new Set<PDFDict>();
  const todo: PDFDict[] = [root];
  let entries = 0;
  while (todo.length > 0) {
    const node = todo.pop() as PDFDict;
    if (seen.has(node)) return 'the PDF attachment tree reaches a node twice';
    seen.add(node);
    if (seen.size > MAX_TREE_NODES) return 'the PDF attachment tree is too large';
    const pairs = node.lookup(PDFName.of('Names'));
    const pairCount = pairs instanceof PDFArray ? Math.floor(pairs.size() / 2) : 0;
    entries += pairCount;
    if (entries > MAX_TREE_ENTRIES) return 'the PDF attachment tree is too large';
    for (let i = 0; i < pairCount && pairs instanceof PDFArray; i += 1) {
      if (keyText(pairs.lookup(2 * i)) === name) found.push(pairs.lookup(2 * i + 1));
    }
    const kids = node.lookup(PDFName.of('Kids'));
    const kidCount = kids instanceof PDFArray ? kids.size() : 0;
    if (kidCount > MAX_TREE_NODES) return 'the PDF attachment tree is too large';
    for (let i = 0; i < kidCount && kids instanceof PDFArray; i += 1) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) todo.push(kid);
    }
  }
  return found;
}

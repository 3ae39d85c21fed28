import { PDFArray, PDFDict, PDFName, PDFRawStream } from 'pdf-lib';
import { decodeBounded } from './decode.js';
import { contentText } from './text.js';

/**
 * The text printed on a PDF's pages, in page order, one line per text line: the verifier checks
 * that the receipt id and hash printed on the page are those of the attached bundle. The page
 * tree, the pages and the decoded content are bounded: a receipt has a few pages of a few KiB.
 */
export type Printed = { ok: true; text: string } | { ok: false; reason: string };

export const MAX_PAGES = 100;
/** Decoded content-stream bytes of all pages together. */
export const MAX_CONTENT_BYTES = 4 * 1024 * 1024;
const MAX_TREE_NODES = 1_000;
const MAX_STREAMS_PER_PAGE = 64;

export function printedText(catalog: PDFDict): Printed {
  const pages = pageList(catalog);
  if (typeof pages === 'string') return { ok: false, reason: pages };
  let left = MAX_CONTENT_BYTES;
  const lines: string[] = [];
  for (const page of pages) {
    const streams = contentStreams(page);
    if (typeof streams === 'string') return { ok: false, reason: streams };
    const parts: Uint8Array[] = [];
    for (const stream of streams) {
      const decoded = decodeBounded(stream, left);
      if (!decoded.ok) return { ok: false, reason: contentReason(decoded) };
      left -= decoded.bytes.length;
      parts.push(decoded.bytes);
    }
    const text = contentText(joined(parts));
    if (!text.ok) return text;
    // one by one: spreading hundreds of thousands of lines into push() overflows the stack
    for (const line of text.lines) lines.push(line);
  }
  return { ok: true, text: lines.join('\n') };
}

function contentReason(decoded: { error: string; detail: string }): string {
  if (decoded.error === 'too-large') {
    return `the PDF's page content is larger than ${MAX_CONTENT_BYTES / 1024 / 1024} MiB`;
  }
  return `the PDF's page content cannot be read: ${decoded.detail}`;
}

/** The pages, depth first in /Kids order; a node reached twice (a cycle) is refused. */
function pageList(catalog: PDFDict): PDFDict[] | string {
  const root = catalog.lookup(PDFName.of('Pages'));
  if (!(root instanceof PDFDict)) return 'the PDF has no page tree';
  const pages: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const todo: PDFDict[] = [root];
  while (todo.length > 0) {
    const node = todo.pop() as PDFDict;
    if (seen.has(node)) return 'the PDF page tree reaches a node twice';
    seen.add(node);
    if (seen.size > MAX_TREE_NODES) return 'the PDF page tree is too large';
    const kids = node.lookup(PDFName.of('Kids'));
    if (!(kids instanceof PDFArray)) {
      pages.push(node);
      if (pages.length > MAX_PAGES) return `the PDF has more than ${MAX_PAGES} pages`;
      continue;
    }
    if (kids.size() > MAX_TREE_NODES) return 'the PDF page tree is too large';
    for (let i = kids.size() - 1; i >= 0; i -= 1) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) todo.push(kid);
    }
  }
  return pages;
}

/** A page's /Contents: one stream or an array of streams, read as one. */
function contentStreams(page: PDFDict): PDFRawStream[] | string {
  const contents = page.lookup(PDFName.of('Contents'));
  if (contents === undefined) return [];
  if (contents instanceof PDFRawStream) return [contents];
  if (!(contents instanceof PDFArray) || contents.size() > MAX_STREAMS_PER_PAGE) {
    return 'a PDF page has malformed /Contents';
  }
  const streams: PDFRawStream[] = [];
  for (let i = 0; i < contents.size(); i += 1) {
    const stream = contents.lookup(i);
    if (!(stream instanceof PDFRawStream)) return 'a PDF page has malformed /Contents';
    streams.push(stream);
  }
  return streams;
}

/** The streams of one page, separated by a newline (they divide only between tokens). */
function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length + 1, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    out[at + part.length] = 10;
    at += part.length + 1;
  }
  return out;
}

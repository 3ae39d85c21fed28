import { PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';
import { decodeBounded } from './decode.js';
import { dictOf, elements, ObjectReader, Unreadable } from './objects.js';
import { MAX_CONTENT_BYTES, MAX_PAGES } from './pages.js';
import { State } from './state.js';
import { contentText } from './text.js';
import { readRevisions } from './xref.js';
import { DerError } from '../timestamp/der.js';

/**
 * The text a PDF's pages print, one line per text line, as the document stands after its last
 * revision: the page tree walked through the cross-reference sections (the revision-aware
 * reader's State, so only the page tree and the content streams are read), each content stream
 * decoded within the verifier's bounds and read by its content reader. Bytes map to characters as
 * the standard fonts encode them (WinAnsi); text in fonts with other encodings reads as what those
 * bytes would be, so a caller matches it, never trusts it.
 */
export type DocumentText = { ok: true; text: string } | { ok: false; reason: string };

const MAX_TREE_NODES = 1_000;
const MAX_STREAMS_PER_PAGE = 64;

export async function documentText(file: Uint8Array): Promise<DocumentText> {
  try {
    const reader = new ObjectReader(file);
    const revisions = readRevisions(reader);
    return stateText(new State(reader, revisions, revisions.length));
  } catch (err) {
    return unreadable(err);
  }
}

/** The printed text of the document as `state` has it; never throws for a readable state. */
export function stateText(state: State): DocumentText {
  try {
    return pagesText(state);
  } catch (err) {
    return unreadable(err);
  }
}

function unreadable(err: unknown): DocumentText {
  if (err instanceof Unreadable || err instanceof DerError) {
    return { ok: false, reason: `the PDF's pages cannot be read: ${err.message}` };
  }
  throw err;
}

function pagesText(state: State): DocumentText {
  const catalog = dictOf(state.resolve(state.trailer.get(key('Root'))));
  if (!catalog) return { ok: false, reason: 'the PDF has no catalog' };
  const todo: (PDFObject | undefined)[] = [catalog.get(key('Pages'))];
  const seen = new Set<PDFObject>();
  let pages = 0;
  let left = MAX_CONTENT_BYTES;
  const lines: string[] = [];
  while (todo.length > 0) {
    const node = dictOf(state.resolve(todo.shift()));
    if (!node || seen.has(node)) continue;
    seen.add(node);
    if (seen.size > MAX_TREE_NODES) return { ok: false, reason: 'the PDF page tree is too large' };
    const kids = elements(state.resolve(node.get(key('Kids'))));
    if (node.has(key('Kids'))) {
      todo.unshift(...kids.slice(0, MAX_TREE_NODES));
      continue;
    }
    if (++pages > MAX_PAGES)
      return { ok: false, reason: `the PDF has more than ${MAX_PAGES} pages` };
    const contents = state.resolve(node.get(key('Contents')));
    const streams = contents instanceof PDFRawStream ? [contents] : elements(contents);
    for (const part of streams.slice(0, MAX_STREAMS_PER_PAGE)) {
      const stream = state.resolve(part);
      if (!(stream instanceof PDFRawStream)) continue;
      const decoded = decodeBounded(stream, left);
      if (!decoded.ok)
        return { ok: false, reason: `a page's content cannot be read: ${decoded.detail}` };
      left -= decoded.bytes.length;
      const text = contentText(decoded.bytes);
      if (!text.ok) return text;
      for (const line of text.lines) lines.push(line);
    }
  }
  return { ok: true, text: lines.join('\n') };
}

const key = (name: string): PDFName => PDFName.of(name);

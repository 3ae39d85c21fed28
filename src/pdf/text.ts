import type { Doc } from './doc.js';

/** Characters the standard (WinAnsi) fonts can draw besides Latin-1. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Longest text drawn for one value. Request fields are bounded (src/contract/limits.ts), but the
 * PDF is rendered from stored receipts, so it bounds what it draws itself: a longer value is cut
 * with a visible marker (the canonical receipt always holds the full value).
 */
export const PDF_TEXT_MAX_CHARS = 1200;
export const PDF_TEXT_MAX_LINES = 24;

/** `text` cut to the drawing limits, with a marker saying how much was left out. */
export function clipped(
  text: string,
  maxChars = PDF_TEXT_MAX_CHARS,
  maxLines = PDF_TEXT_MAX_LINES,
): string {
  let end = Math.min(text.length, maxChars);
  let newlines = 0;
  for (let i = 0; i < end; i += 1) {
    if (text.charCodeAt(i) === 10 && ++newlines === maxLines) end = i;
  }
  // Never cut a surrogate pair in two.
  if (end < text.length && end > 0 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  if (end >= text.length) return text;
  return `${text.slice(0, end)} [... ${text.length - end} more characters not shown]`;
}

/**
 * Replace what Helvetica/Courier cannot draw with '?', so nothing renders as garbage, after
 * clipping the text to the drawing limits.
 */
export function printable(text: string): string {
  let out = '';
  for (const ch of clipped(text).normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    const ok = ch === '\n' || (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff);
    out += ok || WIN_ANSI_EXTRA.has(ch) ? ch : ch === '\t' ? ' ' : '?';
  }
  return out;
}

/**
 * Word-wrap for a monospace font: greedy lines of at most `columns` characters, breaking at
 * spaces where possible and hard-splitting tokens longer than a line (hashes, signatures).
 */
export function wrapMono(text: string, columns: number): string[] {
  const cols = Math.max(1, Math.floor(columns));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    if (line.length > 0 && line.length + 1 + word.length <= cols) {
      line += ` ${word}`;
      continue;
    }
    if (line.length > 0) lines.push(line);
    let rest = word;
    while (rest.length > cols) {
      lines.push(rest.slice(0, cols));
      rest = rest.slice(cols);
    }
    line = rest;
  }
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * Wrap a shell command to `columns`, ending every line but the last with a backslash so the
 * lines still paste as one command: " \" at a space, a bare "\" inside a token that had to be
 * split (bash drops backslash-newline, also inside double quotes).
 */
export function wrapShell(command: string, columns: number): string[] {
  const cols = Math.max(3, Math.floor(columns)) - 2;
  const lines: string[] = [];
  let line = '';
  for (const word of command.split(' ').filter((w) => w.length > 0)) {
    if (line.length > 0 && line.length + 1 + word.length <= cols) {
      line += ` ${word}`;
      continue;
    }
    if (line.length > 0) lines.push(`${line} \\`);
    let rest = word;
    while (rest.length > cols) {
      lines.push(`${rest.slice(0, cols)}\\`);
      rest = rest.slice(cols);
    }
    line = rest;
  }
  lines.push(line);
  return lines;
}

/**
 * Break words wider than `width` (in the current font) with newlines. pdfkit can break such a
 * word itself, but in quadratic time, which a multi-kilobyte token in a details string makes slow.
 * A plain scan (no regular expression over the whole text): linear in the text's length.
 */
export function breakLongWords(doc: Doc, text: string, width: number): string {
  let out = '';
  let start = 0;
  while (start < text.length) {
    let end = start;
    while (end < text.length && !isSpace(text.charCodeAt(end))) end += 1;
    const word = text.slice(start, end);
    out += word.length >= 24 ? breakWord(doc, word, width) : word;
    let next = end;
    while (next < text.length && isSpace(text.charCodeAt(next))) next += 1;
    out += text.slice(end, next);
    start = next;
  }
  return out;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0;
}

function breakWord(doc: Doc, word: string, width: number): string {
  if (doc.widthOfString(word) <= width) return word;
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const ch of word) {
    const w = doc.widthOfString(ch);
    if (line !== '' && lineWidth + w > width - 1) {
      lines.push(line);
      line = '';
      lineWidth = 0;
    }
    line += ch;
    lineWidth += w;
  }
  lines.push(line);
  return lines.join('\n');
}

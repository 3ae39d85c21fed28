import type PDFDocument from 'pdfkit';

/** A pdfkit document instance. */
export type Doc = InstanceType<typeof PDFDocument>;

/** Page geometry (A4, points). The bottom margin leaves room for the footer. */
export const PAGE = { size: 'A4', margin: 50, bottom: 72 } as const;

export const FONT = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  oblique: 'Helvetica-Oblique',
  mono: 'Courier',
} as const;

export const COLOR = {
  text: '#202124',
  muted: '#5f6368',
  rule: '#dadce0',
  headerFill: '#f1f3f4',
  green: '#1e7d34',
  amber: '#b26a00',
  red: '#b3261e',
  redFill: '#fdecea',
  white: '#ffffff',
} as const;

/** Width of one Courier glyph (all are 600/1000 em). */
const MONO_EM = 0.6;
const LABEL_WIDTH = 130;
const MONO_SIZE = 8;

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

export function left(doc: Doc): number {
  return doc.page.margins.left;
}

export function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** Lowest y that body content may reach on the current page. */
export function maxY(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

/** Start a new page unless `height` more points fit above the footer. True if it broke. */
export function ensureSpace(doc: Doc, height: number): boolean {
  if (doc.y + height <= maxY(doc)) return false;
  doc.addPage();
  return true;
}

/**
 * Put doc.y below a block drawn from `top` with the measured `height`. If pdfkit had to
 * continue the text on a new page after all (a value taller than a page), follow it there.
 */
export function settle(doc: Doc, startPage: Doc['page'], bottom: number, gap: number): void {
  doc.x = left(doc);
  doc.y = doc.page === startPage ? bottom + gap : doc.y + gap;
}

/** Section heading with a rule under it, kept together with the start of the section. */
export function heading(doc: Doc, title: string, keepWith = 48): void {
  doc.y += 10;
  ensureSpace(doc, 22 + keepWith);
  const y = doc.y;
  doc.font(FONT.bold).fontSize(12).fillColor(COLOR.text);
  doc.text(title, left(doc), y, { lineBreak: false });
  const ruleY = y + 16;
  doc.moveTo(left(doc), ruleY).lineTo(left(doc) + contentWidth(doc), ruleY);
  doc.lineWidth(0.6).strokeColor(COLOR.rule).stroke();
  doc.y = ruleY + 6;
}

/** Lines of a monospace value wrapped to `width` points. */
export function monoLines(value: string, width: number, size = MONO_SIZE, shell = false): string {
  const columns = width / (size * MONO_EM);
  const wrap = shell ? wrapShell : wrapMono;
  return wrap(printable(value), columns).join('\n');
}

export interface Box {
  x: number;
  width: number;
  /** Wrap as a shell command (see wrapShell). */
  shell: boolean;
}

export interface RowOptions {
  mono?: boolean;
  color?: string;
  bold?: boolean;
}

/** A "label: value" row; the value wraps in its own column and the row never splits. */
export function keyValue(doc: Doc, label: string, value: string, opts: RowOptions = {}): void {
  const x = left(doc);
  const valueWidth = contentWidth(doc) - LABEL_WIDTH;
  const font = opts.mono ? FONT.mono : opts.bold ? FONT.bold : FONT.regular;
  const size = opts.mono ? MONO_SIZE : 9.5;
  doc.font(font).fontSize(size);
  const text = opts.mono
    ? monoLines(value, valueWidth)
    : breakLongWords(doc, printable(value), valueWidth);
  const valueHeight = doc.heightOfString(text, { width: valueWidth });
  doc.font(FONT.regular).fontSize(9);
  const labelHeight = doc.heightOfString(label, { width: LABEL_WIDTH - 8 });
  const height = Math.max(valueHeight, labelHeight);
  ensureSpace(doc, height);
  const y = doc.y;
  const page = doc.page;
  doc.fillColor(COLOR.muted).text(label, x, y + 0.4, { width: LABEL_WIDTH - 8 });
  doc
    .font(font)
    .fontSize(size)
    .fillColor(opts.color ?? COLOR.text);
  doc.text(text, x + LABEL_WIDTH, y + (opts.mono ? 1.4 : 0), { width: valueWidth });
  settle(doc, page, y + height, 4);
}

/** A small caption above a monospace value (hashes, signatures, commands). */
export function monoBlock(doc: Doc, label: string, value: string, box: Partial<Box> = {}): void {
  const x = box.x ?? left(doc);
  const width = box.width ?? contentWidth(doc);
  const size = 8.5;
  const text = monoLines(value, width, size, box.shell);
  doc.font(FONT.mono).fontSize(size);
  const height = 11 + doc.heightOfString(text, { width });
  ensureSpace(doc, height);
  const y = doc.y;
  const page = doc.page;
  doc
    .font(FONT.bold)
    .fontSize(7.5)
    .fillColor(COLOR.muted)
    .text(label.toUpperCase(), x, y, { width });
  doc
    .font(FONT.mono)
    .fontSize(size)
    .fillColor(COLOR.text)
    .text(text, x, y + 11, { width });
  settle(doc, page, y + height, 6);
}

/** A paragraph of body text that flows (and may break across pages). */
export function paragraph(doc: Doc, text: string, box: Partial<Box> = {}, size = 9): void {
  const x = box.x ?? left(doc);
  const width = box.width ?? contentWidth(doc);
  doc.font(FONT.regular).fontSize(size).fillColor(COLOR.text);
  doc.text(printable(text), x, doc.y, { width, lineGap: 1.5 });
  doc.x = left(doc);
  doc.y += 4;
}

/**
 * A time for people: the local time in `timeZone` (named), with the UTC time beside it, e.g.
 * `14 March 2025, 10:12 (America/Chicago); 2025-03-14 15:12:00 UTC`. In UTC, the UTC part only.
 * A value that is not a time is printed as it is.
 */
export function localAndUtc(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const utc = `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return utc;
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
  return `${local} (${timeZone}); ${utc}`;
}

/** A block of lines (an address), one per line, beside its label; the row never splits. */
export function addressBlock(doc: Doc, label: string, lines: readonly string[]): void {
  keyValue(doc, label, lines.filter((l) => l.trim().length > 0).join('\n'));
}

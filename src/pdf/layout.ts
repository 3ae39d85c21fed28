import type { Doc } from './doc.js';
import { breakLongWords, printable, wrapMono, wrapShell } from './text.js';

export type { Doc } from './doc.js';

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

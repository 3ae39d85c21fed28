import { reasonText } from '@verification-receipts/verify/internals';
import type { CheckResult } from '../contract/common.js';
import {
  COLOR,
  contentWidth,
  type Doc,
  ensureSpace,
  FONT,
  heading,
  left,
  maxY,
  paragraph,
  settle,
} from './layout.js';
import { breakLongWords, printable } from './text.js';

const STATUS_COLOR: Record<CheckResult['status'], string> = {
  PASS: COLOR.green,
  WARN: COLOR.amber,
  FAIL: COLOR.red,
};

/** Column widths of the checks table: id, status, details (the rest). */
const ID_WIDTH = 130;
const STATUS_WIDTH = 56;
const PAD_X = 6;
const PAD_Y = 5;
const HEADER_HEIGHT = 17;
const TEXT_SIZE = 8.5;
const DETAILS_OPTIONS = { lineGap: 1 };
/** A row that does not fit is split at the page break only if this much of it fits. */
const MIN_SPLIT_HEIGHT = 60;
/** Check ids are short labels; an absurd one is cut so its cell always fits a page. */
const MAX_ID_CHARS = 120;

interface Row {
  id: string;
  status?: CheckResult['status'];
  details: string;
  continued: boolean;
}

function detailsWidth(doc: Doc): number {
  return contentWidth(doc) - ID_WIDTH - STATUS_WIDTH - 2 * PAD_X;
}

function detailsHeight(doc: Doc, text: string): number {
  doc.font(FONT.regular).fontSize(TEXT_SIZE);
  return doc.heightOfString(text, { width: detailsWidth(doc), ...DETAILS_OPTIONS });
}

function rowHeight(doc: Doc, row: Row): number {
  doc.font(FONT.bold).fontSize(TEXT_SIZE);
  const idHeight = doc.heightOfString(row.id, { width: ID_WIDTH - 2 * PAD_X });
  return Math.max(idHeight, detailsHeight(doc, row.details), 12) + 2 * PAD_Y;
}

/** Where to cut `text` so its first part fits `height`: the last space before the limit. */
function cutToFit(doc: Doc, text: string, height: number): number {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (detailsHeight(doc, text.slice(0, mid)) <= height) lo = mid;
    else hi = mid - 1;
  }
  const space = Math.max(text.lastIndexOf(' ', lo), text.lastIndexOf('\n', lo));
  return space > lo / 2 ? space : lo;
}

function drawTableHeader(doc: Doc, continued: boolean): void {
  const x = left(doc);
  const y = doc.y;
  doc.rect(x, y, contentWidth(doc), HEADER_HEIGHT).fill(COLOR.headerFill);
  doc.font(FONT.bold).fontSize(7.5).fillColor(COLOR.muted);
  doc.text('CHECK', x + PAD_X, y + 5.5, { lineBreak: false });
  doc.text('STATUS', x + ID_WIDTH + PAD_X, y + 5.5, { lineBreak: false });
  const details = continued ? 'DETAILS (CHECKS CONTINUED)' : 'DETAILS';
  doc.text(details, x + ID_WIDTH + STATUS_WIDTH + PAD_X, y + 5.5, { lineBreak: false });
  doc.y = y + HEADER_HEIGHT;
}

function statusPill(doc: Doc, status: CheckResult['status'], x: number, y: number): void {
  const width = STATUS_WIDTH - 2 * PAD_X;
  doc.roundedRect(x, y, width, 12, 3).fill(STATUS_COLOR[status]);
  doc.font(FONT.bold).fontSize(7.5).fillColor(COLOR.white);
  doc.text(status, x, y + 2.6, { width, align: 'center', lineBreak: false });
}

/** Draw one row at doc.y; the caller has made sure it fits. */
function drawRow(doc: Doc, row: Row): void {
  const x = left(doc);
  const width = contentWidth(doc);
  const y = doc.y;
  const height = rowHeight(doc, row);
  doc.font(FONT.bold).fontSize(TEXT_SIZE);
  doc.fillColor(row.continued ? COLOR.muted : COLOR.text);
  doc.text(row.id, x + PAD_X, y + PAD_Y + 1, { width: ID_WIDTH - 2 * PAD_X });
  if (row.status !== undefined) statusPill(doc, row.status, x + ID_WIDTH + PAD_X, y + PAD_Y);
  doc.font(FONT.regular).fontSize(TEXT_SIZE).fillColor(COLOR.text);
  const detailsX = x + ID_WIDTH + STATUS_WIDTH + PAD_X;
  doc.text(row.details, detailsX, y + PAD_Y + 1, { width: detailsWidth(doc), ...DETAILS_OPTIONS });
  const bottom = y + height;
  doc.moveTo(x, bottom).lineTo(x + width, bottom);
  doc.lineWidth(0.5).strokeColor(COLOR.rule).stroke();
  doc.y = bottom;
}

function newTablePage(doc: Doc): void {
  doc.addPage();
  drawTableHeader(doc, true);
}

/** The part of `row` that fits `room` and the rest, or undefined when no useful part fits. */
function splitRow(doc: Doc, row: Row, room: number): { head: Row; rest: Row } | undefined {
  if (room < MIN_SPLIT_HEIGHT) return undefined;
  const cut = cutToFit(doc, row.details, room - 2 * PAD_Y - 2);
  const head = { ...row, details: row.details.slice(0, cut).trimEnd() };
  if (cut === 0 || rowHeight(doc, head) > room) return undefined;
  const id = row.continued ? row.id : `${row.id} (continued)`;
  return { head, rest: { id, details: row.details.slice(cut).trimStart(), continued: true } };
}

/** One check; a row too tall for the rest of the page continues on the next one. */
function drawCheck(doc: Doc, check: CheckResult): void {
  const fullId = printable(check.checkId);
  const id = fullId.length > MAX_ID_CHARS ? `${fullId.slice(0, MAX_ID_CHARS)}...` : fullId;
  doc.font(FONT.regular).fontSize(TEXT_SIZE);
  const text = printable(check.details ?? '').trim() || '-';
  const details = breakLongWords(doc, text, detailsWidth(doc));
  let row: Row = { id, status: check.status, details, continued: false };
  for (let freshPage = false; ; freshPage = true) {
    const room = maxY(doc) - doc.y;
    if (rowHeight(doc, row) <= room) return drawRow(doc, row);
    const split = splitRow(doc, row, room);
    if (split === undefined && freshPage) return drawRow(doc, row); // cannot split any further
    if (split !== undefined) {
      drawRow(doc, split.head);
      row = split.rest;
    }
    newTablePage(doc);
  }
}

/** The checks as a table; the header repeats on every page the table continues on. */
export function drawChecks(doc: Doc, checks: readonly CheckResult[]): void {
  const counts = { PASS: 0, WARN: 0, FAIL: 0 };
  for (const check of checks) counts[check.status] += 1;
  const summary = `${counts.PASS} pass, ${counts.WARN} warn, ${counts.FAIL} fail`;
  heading(doc, `Checks in detail (${checks.length}: ${summary})`, HEADER_HEIGHT + 30);
  if (checks.length === 0) {
    paragraph(doc, 'No checks recorded.');
    return;
  }
  drawTableHeader(doc, false);
  for (const check of checks) drawCheck(doc, check);
  doc.x = left(doc);
  doc.y += 4;
}

/** What each check looks at, in words for the person reading the first page. */
const CHECK_TEXT: Readonly<Record<string, string>> = {
  'policy.profile': 'The policy named in the request',
  'doc.hash': 'The document matches the fingerprint declared for it',
  'ron.seal': "The notary's electronic seal",
  'ron.commission': "The notary's commission",
  'property.jurisdiction': "The property's state and the notary's",
  'ocr.consistency': 'The notary named on the document',
  'registry.screening': 'Screening of the parties against watch lists',
  'request.timestamp': 'The time the request was made',
  'ci.commit': 'The commit that was built',
  'ci.repository': 'The repository',
  'ci.trigger': 'What started the workflow run',
  'ci.identity': "The run's signed identity",
  'ci.runner': 'The machine the run ran on',
  'ci.branch': 'The branch that was built',
};

const STATUS_WORD: Record<CheckResult['status'], string> = {
  PASS: 'Passed',
  WARN: 'Warning',
  FAIL: 'Failed',
};

/**
 * The checks in plain words (first page): what each looked at and whether it passed. The
 * details, with their hashes and identifiers, are in the table on the technical page.
 */
export function drawCheckSummary(doc: Doc, checks: readonly CheckResult[]): void {
  heading(doc, `The checks (${checks.length})`, 16);
  if (checks.length === 0) {
    paragraph(doc, 'No checks recorded.');
    return;
  }
  const x = left(doc);
  const width = contentWidth(doc) - 70;
  for (const check of checks) {
    const text = printable(CHECK_TEXT[check.checkId] ?? check.checkId.slice(0, MAX_ID_CHARS));
    doc.font(FONT.regular).fontSize(9.5);
    const height = doc.heightOfString(text, { width });
    ensureSpace(doc, height);
    const y = doc.y;
    const page = doc.page;
    doc.font(FONT.bold).fillColor(STATUS_COLOR[check.status]).text(STATUS_WORD[check.status], x, y);
    doc
      .font(FONT.regular)
      .fillColor(COLOR.text)
      .text(text, x + 70, y, { width });
    settle(doc, page, y + height, 3);
  }
}

/** The reasons in plain words (first page); their labels are listed on the technical page. */
export function drawPlainReasons(doc: Doc, reasons: readonly string[]): void {
  if (reasons.length === 0) return;
  heading(doc, 'Why', 16);
  for (const reason of reasons) paragraph(doc, `- ${reasonText(reason)}`, {}, 9.5);
}

/** The reason labels (one per failing or warning check). */
export function drawReasons(doc: Doc, reasons: readonly string[]): void {
  heading(doc, 'Reason labels', 16);
  if (reasons.length === 0) {
    paragraph(doc, 'None: no check failed or warned.');
    return;
  }
  const x = left(doc);
  const width = contentWidth(doc) - 14;
  for (const reason of reasons) {
    doc.font(FONT.regular).fontSize(9.5).fillColor(COLOR.text);
    const text = breakLongWords(doc, printable(reason), width);
    const height = doc.heightOfString(text, { width });
    ensureSpace(doc, height);
    const y = doc.y;
    const page = doc.page;
    doc.circle(x + 4, y + 4.5, 1.8).fill(COLOR.text);
    doc.text(text, x + 14, y, { width });
    settle(doc, page, y + height, 3);
  }
}

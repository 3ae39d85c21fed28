import PDFDocument from 'pdfkit';
import { BUNDLE_ATTACHMENT_NAME } from '@verification-receipts/verify/internals';
import { verifyCommand } from '../contract/links.js';
import type { ReceiptView } from '../receipts/types.js';
import { drawCheckSummary, drawChecks, drawPlainReasons, drawReasons } from './checks.js';
import { COLOR, type Doc, FONT, PAGE } from './layout.js';
import { printable } from './text.js';
import {
  drawAnchor,
  drawHeader,
  drawIntegrity,
  drawReceiptFacts,
  drawRevokedBanner,
  drawStatusBanner,
  drawSubject,
  drawTechnicalIntro,
} from './sections.js';
import { drawCommands, drawReverify } from './reverify.js';

export interface RenderOptions {
  /** Rendering time: shown in the header and used as the PDF CreationDate (default: now). */
  generatedAt?: Date;
  /** The issuing organisation (ISSUER_NAME), printed at the top. */
  issuerName?: string | undefined;
  /** The IANA zone for local times (PDF_TIME_ZONE; default UTC); UTC is printed beside. */
  timeZone?: string | undefined;
}

const DISCLAIMER =
  'This receipt records verification signals. It is not a legal determination, ' +
  'a fraud guarantee or a compliance certification.';

/** Render a receipt view as an A4 PDF (standard fonts only; every page has a footer). */
export async function renderReceiptPdf(
  view: ReceiptView,
  options: RenderOptions = {},
): Promise<Buffer> {
  const generatedAt = options.generatedAt ?? new Date();
  const doc = createDocument(view, generatedAt);
  const done = collect(doc);
  const show = { issuerName: options.issuerName, timeZone: options.timeZone ?? 'UTC' };
  // for people first: who, what, the verdict in words, the checks, how to check it
  drawHeader(doc, view, generatedAt, show);
  if (view.revocation.status === 'REVOKED') drawRevokedBanner(doc, view);
  drawStatusBanner(doc, view);
  drawSubject(doc, view);
  drawReceiptFacts(doc, view, show);
  drawCheckSummary(doc, view.receipt.checks);
  drawPlainReasons(doc, view.receipt.reasons);
  drawReverify(doc, view);
  // then the machine identifiers, on a page of their own
  drawTechnicalIntro(doc, view);
  drawChecks(doc, view.receipt.checks);
  drawReasons(doc, view.receipt.reasons);
  drawIntegrity(doc, view);
  drawAnchor(doc, view);
  drawCommands(doc, view);
  drawFooters(doc, view.receipt.receiptId);
  attachBundle(doc, view, generatedAt);
  doc.end();
  return done;
}

/**
 * The bundle as a PDF embedded file (`receipt-bundle.json`, listed by pdfdetach and qpdf): the PDF
 * alone is enough for the verifier package and the /verify page.
 */
function attachBundle(doc: Doc, view: ReceiptView, generatedAt: Date): void {
  const { bundle } = view;
  if (bundle === undefined) return;
  const command = verifyCommand(`receipt-${view.receipt.receiptId}.pdf`, view.serviceUrl);
  doc.file(Buffer.from(`${JSON.stringify(bundle, null, 2)}\n`, 'utf8'), {
    name: BUNDLE_ATTACHMENT_NAME,
    type: 'application/json',
    description: `Receipt bundle: verify with ${command} or at ${view.verifyUrl}`,
    creationDate: generatedAt,
    modifiedDate: generatedAt,
  });
}

function createDocument(view: ReceiptView, generatedAt: Date): Doc {
  const { receiptId, decision } = view.receipt;
  const { margin, bottom } = PAGE;
  return new PDFDocument({
    size: PAGE.size,
    margins: { top: margin, left: margin, right: margin, bottom },
    bufferPages: true,
    info: {
      Title: `Verification Receipt ${receiptId}`,
      Subject: `Verification receipt ${receiptId}: status ${view.status}, decision ${decision}`,
      Creator: 'verification-receipt-service',
      CreationDate: generatedAt,
      ModDate: generatedAt,
    },
    lang: 'en',
    displayTitle: true,
  });
}

function collect(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** "Page N of M", the receipt id and the disclaimer, drawn in the bottom margin of every page. */
function drawFooters(doc: Doc, receiptId: string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i += 1) {
    doc.switchToPage(i);
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the margin must not add a page
    const x = doc.page.margins.left;
    const width = doc.page.width - x - doc.page.margins.right;
    const top = doc.page.height - bottomMargin + 16;
    doc
      .moveTo(x, top)
      .lineTo(x + width, top)
      .lineWidth(0.5)
      .strokeColor(COLOR.rule)
      .stroke();
    doc.font(FONT.oblique).fontSize(7.5).fillColor(COLOR.muted);
    doc.text(DISCLAIMER, x, top + 6, { width, align: 'center', lineBreak: false });
    doc.font(FONT.mono).fontSize(7.5);
    doc.text(`Receipt ${printable(receiptId)}`, x, top + 21, { lineBreak: false });
    doc.font(FONT.regular).fontSize(8);
    doc.text(`Page ${i - start + 1} of ${count}`, x, top + 20, {
      width,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottomMargin;
  }
}

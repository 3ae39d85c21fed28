import type { FastifyInstance } from 'fastify';
import { renderReceiptPdf } from '../pdf/receipt-pdf.js';
import type { ReceiptPdfState } from '../receipts/pdf-store.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { anchorStateOf, revocationOf } from '../receipts/record-state.js';
import { storedPdfMismatch } from './stored-pdf.js';
import { receiptViewOf } from './views.js';

/**
 * The signed PDF of a stored receipt in its current state (issued, anchored, revoked): rendered
 * and signed the first time it is asked for in that state, then served from the store once its
 * bytes verify as that PDF (stored-pdf.ts); bytes that do not are logged, counted and replaced
 * by a PDF made again. A PDF is kept only once it is complete: with time-stamp authorities
 * configured, its signature must be time-stamped (B-T) and, once anchored, its bundle must carry
 * the checkpoint's tokens; otherwise it is served but made again at the next download.
 */
export async function signedReceiptPdf(
  app: FastifyInstance,
  stored: ReceiptRecord,
): Promise<Buffer> {
  const { receipts, pdfSigner, stores } = app.services;
  const record = await receipts.assertIntact(stored, 'pdf');
  const state = pdfStateOf(record);
  const kept = await stores.receiptPdfs.get(record.id, state);
  const mismatch = kept
    ? await storedPdfMismatch(kept.pdf, {
        record,
        state,
        certificate: pdfSigner.certificateFingerprint,
      })
    : undefined;
  if (kept && mismatch === undefined) return kept.pdf;
  if (mismatch !== undefined) {
    app.metrics.integrityFailed('stored-pdf');
    app.log.error(
      { receiptId: record.id, state, mismatch },
      'the stored PDF is not the one the service signed: the store was edited; made again',
    );
  }
  const pdf = await renderSigned(app, record, state);
  if (pdf.complete) {
    const archiveExpiresAt = await pdfSigner.archiveExpiry(pdf.bytes);
    const entry = {
      receiptHash: record.receipt.receiptHash,
      pdf: pdf.bytes,
      ...(archiveExpiresAt ? { archiveExpiresAt } : {}),
    };
    if (kept) await stores.receiptPdfs.replace(record.id, state, entry);
    else await stores.receiptPdfs.put(record.id, state, entry);
  }
  return pdf.bytes;
}

async function renderSigned(
  app: FastifyInstance,
  record: ReceiptRecord,
  state: ReceiptPdfState,
): Promise<{ bytes: Buffer; complete: boolean }> {
  const { receipts, pdfSigner } = app.services;
  const bundle = await receipts.pdfBundleOf(record, pdfSigner.certificateFingerprint);
  const { issuerName, pdfTimeZone } = app.services.config;
  const rendered = await renderReceiptPdf(receiptViewOf(record, app.settings.serviceUrl, bundle), {
    issuerName,
    timeZone: pdfTimeZone,
  });
  const signed = await pdfSigner.sign(rendered);
  const timestamping = pdfSigner.timestamper !== undefined;
  const complete =
    !timestamping ||
    (signed.timestamped &&
      (pdfSigner.longTerm === undefined || (signed.archived === true && !signed.incomplete)) &&
      (state === 'issued' || Boolean(bundle.logEntry?.timestamps)));
  return { bytes: signed.pdf, complete };
}

export function pdfStateOf(record: ReceiptRecord): ReceiptPdfState {
  if (revocationOf(record).revoked) return 'revoked';
  return anchorStateOf(record).status === 'ANCHORED' ? 'anchored' : 'issued';
}

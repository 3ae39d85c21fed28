import type { FastifyInstance } from 'fastify';
import { renderReceiptPdf } from '../pdf/receipt-pdf.js';
import type { ReceiptPdfState } from '../receipts/pdf-store.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { anchorStateOf, revocationOf } from '../receipts/record-state.js';
import { receiptViewOf } from './views.js';

/**
 * The signed PDF of a stored receipt in its current state (issued, anchored, revoked): rendered
 * and signed the first time it is asked for in that state, then served from the store. A PDF is
 * kept only once it is complete: with time-stamp authorities configured, its signature must be
 * time-stamped (B-T) and, once anchored, its bundle must carry the checkpoint's tokens; otherwise
 * it is served but made again at the next download.
 */
export async function signedReceiptPdf(
  app: FastifyInstance,
  record: ReceiptRecord,
): Promise<Buffer> {
  const { receipts, pdfSigner, stores } = app.services;
  await receipts.assertIntact(record, 'pdf');
  const state = pdfStateOf(record);
  const stored = await stores.receiptPdfs.get(record.id, state);
  if (stored && stored.receiptHash === record.receipt.receiptHash) return stored.pdf;
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
    (signed.timestamped && (state === 'issued' || Boolean(bundle.logEntry?.timestamps)));
  if (complete) {
    await stores.receiptPdfs.put(record.id, state, {
      receiptHash: record.receipt.receiptHash,
      pdf: signed.pdf,
    });
  }
  return signed.pdf;
}

export function pdfStateOf(record: ReceiptRecord): ReceiptPdfState {
  if (revocationOf(record).revoked) return 'revoked';
  return anchorStateOf(record).status === 'ANCHORED' ? 'anchored' : 'issued';
}

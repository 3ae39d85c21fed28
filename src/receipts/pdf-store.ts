/**
 * Where signed PDF receipts are kept (implemented by src/storage/receipt-pdfs.ts): one per receipt
 * and state, so a PDF is signed once per state and not at every download.
 */
export type ReceiptPdfState = 'issued' | 'anchored' | 'revoked';

export interface StoredReceiptPdf {
  /** The receipt's hash when the PDF was signed. */
  receiptHash: string;
  pdf: Buffer;
}

export interface ReceiptPdfStore {
  get(receiptId: string, state: ReceiptPdfState): Promise<StoredReceiptPdf | undefined>;
  /** Keeps the first PDF of a state; a concurrent second one is dropped. */
  put(receiptId: string, state: ReceiptPdfState, stored: StoredReceiptPdf): Promise<void>;
  /** Puts this PDF in place of the one kept for the state (whose bytes did not verify). */
  replace(receiptId: string, state: ReceiptPdfState, stored: StoredReceiptPdf): Promise<void>;
}

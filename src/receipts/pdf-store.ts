/**
 * Where signed PDF receipts are kept (implemented by src/storage/receipt-pdfs.ts): one per receipt
 * and state, so a PDF is signed once per state and not at every download.
 */
export type ReceiptPdfState = 'issued' | 'anchored' | 'revoked';

export interface StoredReceiptPdf {
  /** The receipt's hash when the PDF was signed. */
  receiptHash: string;
  pdf: Buffer;
  /** When its newest archive time-stamp stops being relied on (PAdES B-LTA only). */
  archiveExpiresAt?: Date;
}

/** A kept PDF whose archive time-stamp is due for renewal. */
export interface DuePdf extends StoredReceiptPdf {
  receiptId: string;
  state: ReceiptPdfState;
}

export interface ReceiptPdfStore {
  get(receiptId: string, state: ReceiptPdfState): Promise<StoredReceiptPdf | undefined>;
  /** Keeps the first PDF of a state; a concurrent second one is dropped. */
  put(receiptId: string, state: ReceiptPdfState, stored: StoredReceiptPdf): Promise<void>;
  /** Puts this PDF in place of the one kept for the state (whose bytes did not verify). */
  replace(receiptId: string, state: ReceiptPdfState, stored: StoredReceiptPdf): Promise<void>;
  /** Kept PDFs whose archive time-stamp stops being relied on before `before`, soonest first. */
  dueForRenewal(before: Date, limit: number): Promise<DuePdf[]>;
  /**
   * Leases up to `limit` of the PDFs due before `before` whose renewal lease is not held at
   * `now` until `leaseUntil`, soonest first: replicas claiming at the same time get disjoint rows.
   */
  claimForRenewal(before: Date, now: Date, leaseUntil: Date, limit: number): Promise<DuePdf[]>;
  /**
   * Puts the renewed PDF in place of `previous` (kept among the versions), unless the row no
   * longer holds `previous` (then nothing changes and false is returned); the lease is released.
   */
  renew(due: DuePdf, renewed: StoredReceiptPdf): Promise<boolean>;
}

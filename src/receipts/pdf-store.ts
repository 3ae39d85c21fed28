import type { ReceiptRecord } from './ports.js';

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

/** A PDF made for a receipt state, and whether it may be kept. */
export interface MadeReceiptPdf {
  bytes: Buffer;
  /**
   * Its signature is as time-stamped as configured: B-T (and B-LTA when asked for) with
   * time-stamp authorities, always true without them.
   */
  stamped: boolean;
}

/**
 * Renders and signs PDF receipts (implemented by src/pdf/signed-receipt.ts), and reads kept
 * bytes back the way any holder does.
 */
export interface ReceiptPdfMaker {
  /** `sha256:<hex>` of the PDF signing certificate, endorsed by the bundle's `pdfSigner`. */
  readonly certificateFingerprint: string;
  /** Time-stamp authorities are configured: a kept PDF must carry their tokens. */
  readonly timestamping: boolean;
  /** The receipt rendered in its current state with `bundle` attached, PAdES-signed. */
  make(record: ReceiptRecord, bundle: unknown): Promise<MadeReceiptPdf>;
  /**
   * Why kept bytes are not the PDF this service signed for the receipt in `state` (another
   * certificate, another receipt, another state, edited bytes); undefined when they are.
   */
  mismatch(
    pdf: Buffer,
    expected: { record: ReceiptRecord; state: ReceiptPdfState },
  ): Promise<string | undefined>;
  /** When the PDF's newest archive time-stamp stops being relied on (PAdES B-LTA only). */
  archiveExpiry(pdf: Buffer): Promise<Date | undefined>;
}

import { createHash } from 'node:crypto';
import type { ReceiptBundleOf } from './bundle.js';
import type { ReceiptUse } from './intact.js';
import type { ReceiptPdfMaker, ReceiptPdfState, ReceiptPdfStore } from './pdf-store.js';
import type { ReceiptRecord } from './ports.js';
import { anchorStateOf, revocationOf } from './record-state.js';

/** Kept bytes that are not the PDF the service signed (the store was edited): made again. */
export interface StoredPdfMismatch {
  receiptId: string;
  state: ReceiptPdfState;
  mismatch: string;
}

export interface SignedPdfDeps {
  store: ReceiptPdfStore;
  maker: ReceiptPdfMaker;
  /** Told of every kept PDF that is not the one signed (log, metrics). */
  onStoredPdfMismatch?: ((mismatch: StoredPdfMismatch) => void) | undefined;
}

/** What the signed PDF needs of the receipt evidence (evidence.ts). */
export interface PdfEvidence {
  assertIntact(record: ReceiptRecord, use: ReceiptUse): Promise<ReceiptRecord>;
  pdfBundleOf(record: ReceiptRecord, certificate: string): Promise<ReceiptBundleOf>;
}

/** Kept PDFs whose digest a process remembers (about 200 bytes each). */
const VERIFIED_PDFS = 4096;

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The state a receipt's PDF shows: revoked, else anchored once in a checkpoint, else issued. */
export function pdfStateOf(record: ReceiptRecord): ReceiptPdfState {
  if (revocationOf(record).revoked) return 'revoked';
  return anchorStateOf(record).status === 'ANCHORED' ? 'anchored' : 'issued';
}

/**
 * The signed PDF of a stored receipt in its current state (issued, anchored, revoked): rendered
 * and signed the first time it is asked for in that state, then served from the store once its
 * bytes read back as that PDF (the maker's `mismatch`); bytes that do not are reported and
 * replaced by a PDF made again. A PDF is kept only once it is complete: with time-stamp
 * authorities configured, its signature must be time-stamped (B-T, and B-LTA when asked for)
 * and, once anchored, its bundle must carry the checkpoint's tokens; otherwise it is served but
 * made again at the next download.
 */
export class SignedPdfs {
  /**
   * The SHA-256 of the kept bytes this process made or read back as the right PDF, per receipt,
   * state and certificate: the same bytes served again are known by their digest (a hash of the
   * file instead of reading its signature, bundle and text again); any other bytes are read.
   */
  private readonly verified = new Map<string, string>();

  constructor(
    private readonly deps: SignedPdfDeps,
    private readonly evidence: PdfEvidence,
  ) {}

  async of(stored: ReceiptRecord): Promise<Buffer> {
    const { store, maker } = this.deps;
    const record = await this.evidence.assertIntact(stored, 'pdf');
    const state = pdfStateOf(record);
    const kept = await store.get(record.id, state);
    const known = this.keyOf(record, state);
    if (kept && this.verified.get(known) === digest(kept.pdf)) return kept.pdf;
    const mismatch = kept ? await maker.mismatch(kept.pdf, { record, state }) : undefined;
    if (kept && mismatch === undefined) {
      this.remember(known, kept.pdf);
      return kept.pdf;
    }
    if (mismatch !== undefined) {
      this.deps.onStoredPdfMismatch?.({ receiptId: record.id, state, mismatch });
    }
    const pdf = await this.make(record, state);
    if (pdf.complete) {
      const archiveExpiresAt = await maker.archiveExpiry(pdf.bytes);
      const entry = {
        receiptHash: record.receipt.receiptHash,
        pdf: pdf.bytes,
        ...(archiveExpiresAt ? { archiveExpiresAt } : {}),
      };
      if (kept) await store.replace(record.id, state, entry);
      else await store.put(record.id, state, entry);
      this.remember(known, pdf.bytes);
    }
    return pdf.bytes;
  }

  private keyOf(record: ReceiptRecord, state: ReceiptPdfState): string {
    const { receiptHash } = record.receipt;
    const position = String(record.anchor.leafIndex ?? '');
    const certificate = this.deps.maker.certificateFingerprint;
    return [record.id, state, receiptHash, position, certificate].join('\n');
  }

  private remember(key: string, pdf: Buffer): void {
    this.verified.delete(key);
    this.verified.set(key, digest(pdf));
    if (this.verified.size > VERIFIED_PDFS) {
      this.verified.delete(this.verified.keys().next().value!);
    }
  }

  private async make(
    record: ReceiptRecord,
    state: ReceiptPdfState,
  ): Promise<{ bytes: Buffer; complete: boolean }> {
    const { maker } = this.deps;
    const bundle = await this.evidence.pdfBundleOf(record, maker.certificateFingerprint);
    const made = await maker.make(record, bundle);
    const complete =
      made.stamped &&
      (!maker.timestamping || state === 'issued' || Boolean(bundle.logEntry?.timestamps));
    return { bytes: made.bytes, complete };
  }
}

import type { Knex } from 'knex';
import type { ReceiptPdfState, ReceiptPdfStore, StoredReceiptPdf } from '../receipts/pdf-store.js';

/** Signed PDF receipts (`receipt_pdfs`), one per receipt and state. */
export class ReceiptPdfRepository implements ReceiptPdfStore {
  constructor(private readonly knex: Knex) {}

  async get(receiptId: string, state: ReceiptPdfState): Promise<StoredReceiptPdf | undefined> {
    const row = (await this.knex('receipt_pdfs')
      .where({ receipt_id: receiptId, state })
      .first('receipt_hash', 'pdf')) as { receipt_hash: string; pdf: Buffer } | undefined;
    return row ? { receiptHash: row.receipt_hash, pdf: Buffer.from(row.pdf) } : undefined;
  }

  async put(receiptId: string, state: ReceiptPdfState, stored: StoredReceiptPdf): Promise<void> {
    await this.knex('receipt_pdfs')
      .insert({ receipt_id: receiptId, state, receipt_hash: stored.receiptHash, pdf: stored.pdf })
      .onConflict(['receipt_id', 'state'])
      .ignore();
  }

  async replace(
    receiptId: string,
    state: ReceiptPdfState,
    stored: StoredReceiptPdf,
  ): Promise<void> {
    await this.knex('receipt_pdfs')
      .insert({ receipt_id: receiptId, state, receipt_hash: stored.receiptHash, pdf: stored.pdf })
      .onConflict(['receipt_id', 'state'])
      .merge(['receipt_hash', 'pdf']);
  }
}

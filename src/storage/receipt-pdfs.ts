import type { Knex } from 'knex';
import type {
  DuePdf,
  ReceiptPdfState,
  ReceiptPdfStore,
  StoredReceiptPdf,
} from '../receipts/pdf-store.js';

interface Row {
  receipt_id: string;
  state: ReceiptPdfState;
  receipt_hash: string;
  pdf: Buffer;
  archive_expires_at: Date | string | null;
}

const rowOf = (receiptId: string, state: ReceiptPdfState, stored: StoredReceiptPdf) => ({
  receipt_id: receiptId,
  state,
  receipt_hash: stored.receiptHash,
  pdf: stored.pdf,
  archive_expires_at: stored.archiveExpiresAt ?? null,
});

const dueOf = (r: Row): DuePdf => ({
  receiptId: r.receipt_id,
  state: r.state,
  receiptHash: r.receipt_hash,
  pdf: Buffer.from(r.pdf),
  ...(r.archive_expires_at ? { archiveExpiresAt: new Date(r.archive_expires_at) } : {}),
});

/** Signed PDF receipts (`receipt_pdfs`), one per receipt and state, and the renewed ones' past. */
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
      .insert(rowOf(receiptId, state, stored))
      .onConflict(['receipt_id', 'state'])
      .ignore();
  }

  async replace(
    receiptId: string,
    state: ReceiptPdfState,
    stored: StoredReceiptPdf,
  ): Promise<void> {
    await this.knex('receipt_pdfs')
      .insert(rowOf(receiptId, state, stored))
      .onConflict(['receipt_id', 'state'])
      .merge(['receipt_hash', 'pdf', 'archive_expires_at']);
  }

  async dueForRenewal(before: Date, limit: number): Promise<DuePdf[]> {
    const rows = (await this.knex('receipt_pdfs')
      .where('archive_expires_at', '<', before)
      .orderBy('archive_expires_at')
      .limit(limit)
      .select('receipt_id', 'state', 'receipt_hash', 'pdf', 'archive_expires_at')) as Row[];
    return rows.map(dueOf);
  }

  async claimForRenewal(
    before: Date,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<DuePdf[]> {
    // The locking select stays a materialized CTE: as an in-subquery the planner may run it again
    // and lease more than `limit` rows.
    const result = (await this.knex.raw(
      `with due as materialized (
         select receipt_id, state from receipt_pdfs
         where archive_expires_at < ?
           and (renewal_lease_until is null or renewal_lease_until < ?)
         order by archive_expires_at limit ? for update skip locked
       )
       update receipt_pdfs set renewal_lease_until = ?
       from due where receipt_pdfs.receipt_id = due.receipt_id and receipt_pdfs.state = due.state
       returning receipt_pdfs.receipt_id, receipt_pdfs.state, receipt_pdfs.receipt_hash,
         receipt_pdfs.pdf, receipt_pdfs.archive_expires_at`,
      [before, now, limit, leaseUntil],
    )) as { rows: Row[] };
    return result.rows
      .map(dueOf)
      .sort((a, b) => (a.archiveExpiresAt?.getTime() ?? 0) - (b.archiveExpiresAt?.getTime() ?? 0));
  }

  async renew(due: DuePdf, renewed: StoredReceiptPdf): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const row = (await trx('receipt_pdfs')
        .where({ receipt_id: due.receiptId, state: due.state })
        .forUpdate()
        .first('pdf')) as { pdf: Buffer } | undefined;
      if (!row || !Buffer.from(row.pdf).equals(due.pdf)) return false;
      await trx('receipt_pdf_versions').insert({
        receipt_id: due.receiptId,
        state: due.state,
        receipt_hash: due.receiptHash,
        pdf: due.pdf,
      });
      await trx('receipt_pdfs')
        .where({ receipt_id: due.receiptId, state: due.state })
        .update({
          receipt_hash: renewed.receiptHash,
          pdf: renewed.pdf,
          archive_expires_at: renewed.archiveExpiresAt ?? null,
          renewal_lease_until: null,
        });
      return true;
    });
  }
}

import { archive, archiveExpiry } from '../pdf/sign/long-term.js';
import type { SignatureTimestamper } from '../pdf/sign/pades.js';
import type { ReceiptPdfStore } from '../receipts/pdf-store.js';

/**
 * Renewal of PDF receipts' archive time-stamps (PAdES B-LTA): every kept PDF whose newest
 * document time-stamp stops being relied on within the margin (its authority's certificate ends,
 * or its algorithm does) gets a DSS update with that time-stamp's certificates and a new document
 * time-stamp over it, each an incremental update; the renewed file takes the stored one's place
 * and the old one is kept among the versions. A renewal that would not move the date (the
 * authority's certificate ends no later) is not stored: it would be renewed again at every run.
 */

export interface RenewalOptions {
  store: ReceiptPdfStore;
  timestamper: SignatureTimestamper;
  /** The authorities' certificates (TSA_CERT_FILES): for the DSS and to check the tokens. */
  tsaCertificates: readonly Uint8Array[];
  /** How long before the end a time-stamp is renewed (PDF_RENEWAL_MARGIN_DAYS). */
  marginMs: number;
  now?: () => Date;
  /** PDFs renewed in one run at most. */
  batch?: number;
}

export interface RenewalRun {
  renewed: number;
  /** Due PDFs not renewed: no authority answered, or the new time-stamp would not move the date. */
  failed: { receiptId: string; reason: string }[];
}

export async function renewDuePdfs(options: RenewalOptions): Promise<RenewalRun> {
  const now = (options.now ?? (() => new Date()))();
  const before = new Date(now.getTime() + options.marginMs);
  const due = await options.store.dueForRenewal(before, options.batch ?? 100);
  const run: RenewalRun = { renewed: 0, failed: [] };
  for (const item of due) {
    const fail = (reason: string) => run.failed.push({ receiptId: item.receiptId, reason });
    const renewed = await archive(
      item.pdf,
      { certificates: options.tsaCertificates },
      options.timestamper,
    );
    if (!renewed) {
      fail('no time-stamp authority answered');
      continue;
    }
    const expiry = await archiveExpiry(renewed, options.tsaCertificates);
    if (!expiry || (item.archiveExpiresAt && expiry <= item.archiveExpiresAt)) {
      fail('the new time-stamp would not be relied on longer than the one it renews');
      continue;
    }
    const stored = { receiptHash: item.receiptHash, pdf: renewed, archiveExpiresAt: expiry };
    if (await options.store.renew(item, stored)) run.renewed += 1;
  }
  return run;
}

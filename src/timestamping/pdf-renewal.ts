import { archive, archiveExpiry } from '../pdf/sign/long-term.js';
import type { SignatureTimestamper } from '../pdf/sign/pades.js';
import type { RevocationSource } from '../pdf/sign/revocation.js';
import type { ReceiptPdfStore } from '../receipts/pdf-store.js';

/**
 * Renewal of PDF receipts' archive time-stamps (PAdES B-LTA): every kept PDF whose newest
 * document time-stamp stops being relied on within the margin (its authority's certificate ends,
 * or its algorithm does) gets a DSS update with that time-stamp's certificates and a new document
 * time-stamp over it, each an incremental update; the renewed file takes the stored one's place
 * and the old one is kept among the versions. A renewal that would not move the date (the
 * authority's certificate ends no later) is not stored: it would be renewed again at every run.
 * The DSS update carries the CRLs the certificates' issuers publish; a CRL that cannot be had
 * does not hold the renewal up (the archive time-stamp's end does not wait), a CRL that lists a
 * certificate of the file stops that file's renewal, which is reported as failed.
 *
 * Replicas share the work: each run leases the due rows it takes (`claimForRenewal`, for
 * `leaseMs`), so another replica's run at the same time takes other rows or none; a renewal
 * releases its row's lease, a failed one keeps it until it passes, so a file is tried again one
 * lease later, not at every run of every replica.
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
  /** The CRLs of the DSS update (src/timestamping/crl-client.ts). */
  revocation?: RevocationSource;
  /** How long a claimed row is this run's (default one hour: a batch's TSA and CRL requests). */
  leaseMs?: number;
}

const DEFAULT_LEASE_MS = 60 * 60 * 1000;

export interface RenewalRun {
  renewed: number;
  /**
   * Due PDFs not renewed: no authority answered, a certificate of the file is revoked, or the new
   * time-stamp would not move the date.
   */
  failed: { receiptId: string; reason: string }[];
}

export async function renewDuePdfs(options: RenewalOptions): Promise<RenewalRun> {
  const now = (options.now ?? (() => new Date()))();
  const before = new Date(now.getTime() + options.marginMs);
  const leaseUntil = new Date(now.getTime() + (options.leaseMs ?? DEFAULT_LEASE_MS));
  const due = await options.store.claimForRenewal(before, now, leaseUntil, options.batch ?? 100);
  const run: RenewalRun = { renewed: 0, failed: [] };
  for (const item of due) {
    const fail = (reason: string) => run.failed.push({ receiptId: item.receiptId, reason });
    const archived = await archive(
      item.pdf,
      { certificates: options.tsaCertificates },
      options.timestamper,
      options.revocation,
    );
    const renewed = archived.pdf;
    if (!renewed) {
      fail(archived.reason ?? 'no time-stamp authority answered');
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

import { setTimeout as sleep } from 'node:timers/promises';
import type { ReceiptBundleOf } from './bundle.js';
import type { ReceiptRecord } from './ports.js';
import type { ReceiptService } from './service.js';

export type BundleLogEntryOf = NonNullable<ReceiptBundleOf['logEntry']>;

/** How often a waiting answer looks again; the sealer's default batching window is 250 ms. */
const POLL_MS = 50;

/**
 * Waits, at most `waitMs`, until the receipt is in a signed checkpoint; then its record (anchor
 * state updated) and its bundle's `logEntry` (inclusion proof and checkpoint). Without a log
 * entry, or when the time runs out first: the record as it is then, without a `logEntry`. The
 * wait reads the store (the record, then the inclusion proof) every POLL_MS, so it sees seals by
 * any process.
 */
export async function awaitLogEntry(
  receipts: Pick<ReceiptService, 'get' | 'bundleOf'>,
  tenant: string,
  receiptId: string,
  waitMs: number,
): Promise<{ record: ReceiptRecord; logEntry?: BundleLogEntryOf }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const record = await receipts.get(tenant, receiptId);
    if (!record.hasProofArtifact) return { record };
    if (record.anchor.leafIndex !== null) {
      const { logEntry } = await receipts.bundleOf(record);
      if (logEntry) return { record, logEntry };
    }
    const left = deadline - Date.now();
    if (left <= 0) return { record };
    await sleep(Math.min(POLL_MS, left));
  }
}

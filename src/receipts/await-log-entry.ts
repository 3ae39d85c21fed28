import type { ReceiptBundleOf } from './bundle.js';
import type { LogWaiters } from './log-waiters.js';
import type { ReceiptRecord } from './ports.js';
import type { ReceiptService } from './service.js';

export type BundleLogEntryOf = NonNullable<ReceiptBundleOf['logEntry']>;

/** The record as last read and, once it is in a signed checkpoint, its bundle's `logEntry`. */
export interface LogEntryAnswer {
  record: ReceiptRecord;
  logEntry?: BundleLogEntryOf;
}

/**
 * Waits, at most `waitMs`, until the receipt is in a signed checkpoint; then its record (anchor
 * state updated) and its bundle's `logEntry` (inclusion proof and checkpoint). Without a log
 * entry, or when the time runs out first: the record as last read, without a `logEntry`. The
 * receipt is read once at the start and then only when a seal (by any process on the store) may
 * have placed it (`LogWaiters`), never on a timer of its own.
 */
export async function awaitLogEntry(
  receipts: Pick<ReceiptService, 'get' | 'bundleOf'>,
  waiters: Pick<LogWaiters, 'until'>,
  tenant: string,
  receiptId: string,
  waitMs: number,
): Promise<LogEntryAnswer> {
  return waiters.until<LogEntryAnswer>('sealed', receiptId, Date.now() + waitMs, async () => {
    const record = await receipts.get(tenant, receiptId);
    if (!record.hasProofArtifact) return { done: true, value: { record } };
    if (record.anchor.leafIndex !== null) {
      const { logEntry } = await receipts.bundleOf(record);
      if (logEntry) return { done: true, value: { record, logEntry } };
    }
    return { done: false, value: { record } };
  });
}

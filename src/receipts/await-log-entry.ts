import type { ReceiptBundleOf } from './bundle.js';
import type { Attempt, LogWaiters } from './log-waiters.js';
import type { ReceiptRecord } from './ports.js';
import type { ReceiptService } from './service.js';

export type BundleLogEntryOf = NonNullable<ReceiptBundleOf['logEntry']>;

/**
 * What a witnessed wait found: whether its checkpoint carries the quorum's cosignatures, which
 * configured witnesses cosigned it, and the quorum asked for.
 */
export interface WitnessingAnswer {
  witnessed: boolean;
  cosigners: string[];
  quorum: number;
  witnesses: string[];
}

/** The record as last read and, once it is in a signed checkpoint, its bundle's `logEntry`. */
export interface LogEntryAnswer {
  record: ReceiptRecord;
  logEntry?: BundleLogEntryOf;
  /** Only for a witnessed wait (a log whose policy has a witness quorum). */
  witnessing?: WitnessingAnswer;
}

type Receipts = Pick<ReceiptService, 'get' | 'bundleOf' | 'witnessedBundleOf' | 'witnessQuorum'>;

/**
 * Waits, at most `waitMs`, until the receipt is in a signed checkpoint (`witnessed`: one that
 * also carries the cosignatures of the log policy's witness quorum); then its record (anchor
 * state updated) and its bundle's `logEntry` (inclusion proof and checkpoint). Without a log
 * entry: the record alone. When the time runs out first: the record as last read, and for a
 * witnessed wait the proof in the latest signed checkpoint when there is one, with what the
 * checkpoint lacks (`witnessing`). The receipt is read once at the start and then only when a
 * seal or a cosignature (by any process on the store) may have completed it (`LogWaiters`),
 * never on a timer of its own. A log whose policy requires no witness waits for the seal alone.
 */
export async function awaitLogEntry(
  receipts: Receipts,
  waiters: Pick<LogWaiters, 'until'>,
  tenant: string,
  receiptId: string,
  waitMs: number,
  witnessed = false,
): Promise<LogEntryAnswer> {
  const policy = witnessed ? receipts.witnessQuorum : undefined;
  const deadline = Date.now() + waitMs;
  if (policy) {
    const look = witnessedLook(receipts, tenant, receiptId, policy);
    const waited = await waiters.until('witnessed', receiptId, deadline, look);
    // only cosignatures wake this wait: a seal that placed the receipt meanwhile is read once
    // more when the time runs out, so the answer carries what exists then
    if (!waited.record.hasProofArtifact || waited.witnessing?.witnessed) return waited;
    return (await look()).value;
  }
  return waiters.until<LogEntryAnswer>('sealed', receiptId, deadline, async () => {
    const record = await receipts.get(tenant, receiptId);
    if (!record.hasProofArtifact) return { done: true, value: { record } };
    if (record.anchor.leafIndex !== null) {
      const { logEntry } = await receipts.bundleOf(record);
      if (logEntry) return { done: true, value: { record, logEntry } };
    }
    return { done: false, value: { record } };
  });
}

/** One look of a witnessed wait: done once the newest witnessed checkpoint holds the receipt. */
function witnessedLook(
  receipts: Receipts,
  tenant: string,
  receiptId: string,
  policy: { witnesses: string[]; quorum: number },
): () => Promise<Attempt<LogEntryAnswer>> {
  return async () => {
    const record = await receipts.get(tenant, receiptId);
    if (!record.hasProofArtifact) return { done: true, value: { record } };
    if (record.anchor.leafIndex === null) {
      const witnessing = { witnessed: false, cosigners: [], ...policy };
      return { done: false, value: { record, witnessing } };
    }
    const found = await receipts.witnessedBundleOf(record);
    const { logEntry } = found.bundle;
    const witnessing = { ...policy, witnessed: found.witnessed, cosigners: found.cosigners };
    return { done: found.witnessed, value: { record, witnessing, ...(logEntry && { logEntry }) } };
  };
}

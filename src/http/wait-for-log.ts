import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { awaitLogEntry, type BundleLogEntryOf } from '../receipts/await-log-entry.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { preferredWait } from './prefer.js';

/**
 * `Prefer: wait=N` on an issuing endpoint (docs/api.md): when the client asks and the receipt
 * has a log entry, the answer waits up to N seconds (capped) for a signed checkpoint holding it
 * and says `Preference-Applied: wait=N` (RFC 7240 §3). Undefined when not asked (or the receipt
 * can never be in the log): the answer is given at once, as without the header. A wait that runs
 * out answers the record as it is then, without `logEntry`, never an error.
 */
export async function waitForLog(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
  receiptId: string,
): Promise<{ record: ReceiptRecord; logEntry?: BundleLogEntryOf; wait: number } | undefined> {
  const wait = preferredWait(request.headers.prefer);
  if (wait === undefined) return undefined;
  const { receipts, logWaiters } = app.services;
  // the wait's first look reads the receipt: one without a log entry ends it at once, unwaited
  const answer = await awaitLogEntry(receipts, logWaiters, tenant, receiptId, wait * 1000);
  if (!answer.record.hasProofArtifact) return undefined;
  reply.header('preference-applied', `wait=${wait}`);
  return { ...answer, wait };
}

/** The anchor note of an answer whose wait ran out: why there is no proof, and where to ask. */
export function waitRanOutNote(wait: number): string {
  return `not in a signed checkpoint within the ${wait} s asked (Prefer: wait=${wait}); POST /anchor/{receiptId} later for the inclusion proof`;
}

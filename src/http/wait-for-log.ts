import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WitnessingState } from '../contract/log-entry.js';
import {
  awaitLogEntry,
  type BundleLogEntryOf,
  type WitnessingAnswer,
} from '../receipts/await-log-entry.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { preferencesOf } from './prefer.js';

/** A waited answer: the record, its proof when found, and for a witnessed wait what it found. */
export interface Waited {
  record: ReceiptRecord;
  logEntry?: BundleLogEntryOf;
  witnessing?: WitnessingState;
  wait: number;
}

/**
 * `Prefer: wait=N` on an issuing endpoint (docs/api.md): when the client asks and the receipt
 * has a log entry, the answer waits up to N seconds (capped) for a signed checkpoint holding it
 * and says `Preference-Applied: wait=N` (RFC 7240 §3). With `witnessed` too, and a log policy
 * with a witness quorum, it waits for a checkpoint that also carries the quorum's cosignatures,
 * says `Preference-Applied: wait=N, witnessed`, and `witnessing` says what it found (and what is
 * missing when the time ran out first); without such a policy `witnessed` is ignored. Undefined
 * when not asked (or the receipt can never be in the log): the answer is given at once, as
 * without the header. A wait that runs out answers what exists then, never an error.
 */
export async function waitForLog(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
  receiptId: string,
): Promise<Waited | undefined> {
  const { wait, witnessed } = preferencesOf(request.headers.prefer);
  if (wait === undefined) return undefined;
  const { receipts, logWaiters } = app.services;
  const witnessing = witnessed && receipts.witnessQuorum !== undefined;
  // the wait's first look reads the receipt: one without a log entry ends it at once, unwaited
  const answer = await awaitLogEntry(
    receipts,
    logWaiters,
    tenant,
    receiptId,
    wait * 1000,
    witnessing,
  );
  if (!answer.record.hasProofArtifact) return undefined;
  reply.header('preference-applied', witnessing ? `wait=${wait}, witnessed` : `wait=${wait}`);
  const { record, logEntry } = answer;
  return {
    record,
    wait,
    ...(logEntry && { logEntry }),
    ...(answer.witnessing && { witnessing: witnessingState(answer.witnessing, logEntry) }),
  };
}

/** The answer's `witnessing`: what the checkpoint carries, and what it lacks. */
function witnessingState(found: WitnessingAnswer, logEntry: unknown): WitnessingState {
  const state = { witnessed: found.witnessed, quorum: found.quorum, cosignedBy: found.cosigners };
  if (found.witnessed) return state;
  return {
    ...state,
    missing: logEntry ? 'cosignatures' : 'checkpoint',
    missingWitnesses: found.witnesses.filter((w) => !found.cosigners.includes(w)),
  };
}

/** The anchor note of an answer whose wait ran out: why there is no proof, and where to ask. */
export function waitRanOutNote(wait: number): string {
  return `not in a signed checkpoint within the ${wait} s asked (Prefer: wait=${wait}); POST /anchor/{receiptId} later for the inclusion proof`;
}

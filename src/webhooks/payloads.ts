import type { ReceiptBundleOf } from '../receipts/bundle.js';
import type { ReceiptLinks, ReceiptRecord } from '../receipts/ports.js';
import type { PublicStatus } from '../receipts/public-status.js';
import { revocationOf } from '../receipts/record-state.js';
import { statusOf } from '../receipts/status.js';
import { MAX_BODY_BYTES, type EventEnvelope } from './events.js';
import type { StoredEvent } from './ports.js';

/**
 * The body of an event, built at its first attempt from what its transaction recorded and what
 * the receipt domain publishes about the receipt (its bundle's log entry, its signed status),
 * then kept, so that every later attempt sends the same bytes. Never the document's bytes.
 */

/** What the receipt domain tells about a receipt (ReceiptService). */
export interface ReceiptFacts {
  get(tenant: string, receiptId: string): Promise<ReceiptRecord>;
  bundle(tenant: string, receiptId: string): Promise<ReceiptBundleOf>;
  publicStatus(receiptHash: string): Promise<PublicStatus>;
}

/** A body that cannot be built (yet): the attempt fails with this as its error. */
export class PayloadUnavailable extends Error {}

/**
 * A body over MAX_BODY_BYTES: it would be the same at every attempt, so the delivery fails at
 * once (visible in its deliveries and the failed count) and nothing over the bound is ever sent.
 */
export class PayloadTooLarge extends PayloadUnavailable {}

function issued(record: ReceiptRecord, links: ReceiptLinks): Record<string, unknown> {
  const { receipt } = record;
  const link = links.receipt(record.id);
  return {
    receiptId: record.id,
    receiptHash: receipt.receiptHash,
    kind: receipt.subject.kind,
    decision: receipt.decision,
    status: statusOf(receipt.decision, false),
    reasons: receipt.reasons,
    createdAt: receipt.createdAt,
    links: { receipt: link.json, pdf: link.pdf },
  };
}

async function dataOf(
  event: StoredEvent,
  facts: ReceiptFacts,
  links: ReceiptLinks,
): Promise<Record<string, unknown>> {
  switch (event.type) {
    case 'receipt.issued':
      return issued(await facts.get(event.tenant, event.subject), links);
    case 'receipt.anchored': {
      const bundle = await facts.bundle(event.tenant, event.subject);
      if (!bundle.logEntry) throw new PayloadUnavailable('the receipt has no inclusion proof yet');
      return {
        receiptId: event.subject,
        receiptHash: bundle.receipt.receiptHash,
        logEntry: bundle.logEntry,
      };
    }
    case 'receipt.revoked': {
      const record = await facts.get(event.tenant, event.subject);
      const revocation = revocationOf(record);
      if (!revocation.revoked || !revocation.revokedAt)
        throw new PayloadUnavailable('the receipt is not revoked');
      return {
        receiptId: record.id,
        receiptHash: record.receipt.receiptHash,
        revokedAt: revocation.revokedAt.toISOString(),
        ...(revocation.issuerId ? { revokedBy: revocation.issuerId } : {}),
        status: await facts.publicStatus(record.receipt.receiptHash),
      };
    }
    case 'deployment.decided':
    case 'webhook.test':
      return event.data;
  }
}

/** The event's body (minified JSON of its envelope), at most MAX_BODY_BYTES. */
export async function bodyOf(
  event: StoredEvent,
  facts: ReceiptFacts,
  links: ReceiptLinks,
): Promise<string> {
  const data = await dataOf(event, facts, links);
  const envelope: EventEnvelope = {
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    data,
  };
  let body = JSON.stringify(envelope);
  const entry = data.logEntry as { timestamps?: unknown } | undefined;
  if (Buffer.byteLength(body) > MAX_BODY_BYTES && entry?.timestamps) {
    // the checkpoint's RFC 3161 tokens are the largest part; the bundle still carries them
    const rest: Record<string, unknown> = { ...entry };
    delete rest.timestamps;
    body = JSON.stringify({ ...envelope, data: { ...data, logEntry: rest } });
  }
  if (Buffer.byteLength(body) > MAX_BODY_BYTES)
    throw new PayloadTooLarge(
      `not sent: the ${event.type} body is ${Buffer.byteLength(body)} bytes, over ${MAX_BODY_BYTES}`,
    );
  return body;
}

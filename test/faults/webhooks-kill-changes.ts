import type { Knex } from 'knex';
import { expect } from 'vitest';
import type { ReceivedWebhook } from '../helpers/webhook-receiver.js';

/**
 * The receipt changes a store holds and the webhooks a receiver got, both as `<type> <receiptId>`
 * (one change, one event), for the kill -9 test of webhooks.
 */

/** Every committed change that has an event: each receipt, each revocation, each seal. */
export async function changesOf(knex: Knex): Promise<Set<string>> {
  const rows = (await knex.raw(
    `select 'receipt.issued ' || id as change from receipts
     union all
     select 'receipt.revoked ' || id from receipts where revoked_at is not null
     union all
     select 'receipt.anchored ' || e.receipt_id
     from log_entries e join log_leaves l on l.seq = e.seq where e.receipt_id is not null`,
  )) as { rows: { change: string }[] };
  const changes = rows.rows.map((r) => r.change);
  expect(new Set(changes).size).toBe(changes.length);
  return new Set(changes);
}

export interface ReceivedEvents {
  /** The changes whose event arrived, answered or not. */
  sent: Set<string>;
  /** The changes whose event the receiver acknowledged (answered 200). */
  delivered: Set<string>;
  /** webhook-ids that arrived more than once. */
  duplicates: string[];
}

/** What the receiver got; each change always came under one webhook-id. */
export function receivedEvents(received: ReceivedWebhook[]): ReceivedEvents {
  const idOf = new Map<string, string>();
  const seen = new Set<string>();
  const events: ReceivedEvents = { sent: new Set(), delivered: new Set(), duplicates: [] };
  for (const r of received) {
    const body = JSON.parse(r.body) as { type: string; data: { receiptId: string } };
    const change = `${body.type} ${body.data.receiptId}`;
    const id = r.headers['webhook-id']!;
    expect(idOf.get(change) ?? id, change).toBe(id);
    idOf.set(change, id);
    if (seen.has(id)) events.duplicates.push(id);
    seen.add(id);
    events.sent.add(change);
    if (r.answered === 'ok') events.delivered.add(change);
  }
  return events;
}

import type { Knex } from 'knex';
import type { RevocationOutcome, RevocationRequest, RevocationStore } from '../receipts/ports.js';
import type { ChangeFeed } from './change-feed.js';
import { recordEvent } from './webhook-outbox.js';

/**
 * Revocation is one conditional UPDATE (`... where revoked_at is null`): the row lock makes
 * exactly one of N concurrent calls win; the audit row, the revocation's log entry (queued
 * for the next seal) and its `receipt.revoked` webhook event are written in the same transaction.
 */
export class RevocationRepository implements RevocationStore {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {}

  async revoke(req: RevocationRequest): Promise<RevocationOutcome> {
    const outcome = await this.transaction(req);
    // this replica's cached copy goes before the answer (others: migration 023)
    if (outcome === 'REVOKED') this.changes.announce('receipts', req.receiptId);
    return outcome;
  }

  private transaction(req: RevocationRequest): Promise<RevocationOutcome> {
    return this.knex.transaction(async (trx) => {
      const now = new Date();
      const updated = (await trx('receipts')
        .where({ id: req.receiptId, tenant: req.tenant })
        .whereNull('revoked_at')
        // an audit row means revoked, whatever the (editable) column says
        .whereNotExists(trx('revocations').select(trx.raw('1')).where('receipt_id', req.receiptId))
        .whereNotExists(trx('log_entries').select(trx.raw('1')).where('revokes', req.receiptId))
        .update({ revoked_at: now, revoked_by: req.issuerId }, ['receipt_hash'])) as {
        receipt_hash: string;
      }[];
      const [revoked] = updated;
      if (revoked) {
        const { entry, leafHash } = req.logEntry(revoked.receipt_hash);
        await trx('log_entries').insert({ revokes: req.receiptId, entry, leaf_hash: leafHash });
        await trx('revocations').insert({
          receipt_id: req.receiptId,
          tenant: req.tenant,
          issuer_id: req.issuerId,
          api_key_id: req.apiKeyId,
          signature_timestamp: req.signatureTimestamp,
          issuer_signature: req.issuerSignature,
          revoked_at: now,
        });
        await recordEvent(trx, 'receipt.revoked', {
          tenant: req.tenant,
          subject: req.receiptId,
          data: { issuerId: req.issuerId, revokedAt: now.toISOString() },
        });
        return 'REVOKED';
      }
      const exists = await trx('receipts')
        .where({ id: req.receiptId, tenant: req.tenant })
        .first('id');
      return exists ? 'ALREADY_REVOKED' : 'NOT_FOUND';
    });
  }
}

import type { Knex } from 'knex';

export interface RevocationRequest {
  tenant: string;
  receiptId: string;
  issuerId: string;
  apiKeyId: string;
  signatureTimestamp: string;
  issuerSignature: string;
}

export type RevocationOutcome = 'REVOKED' | 'ALREADY_REVOKED' | 'NOT_FOUND';

/**
 * Revocation is one conditional UPDATE (`... where revoked_at is null`): the row lock makes
 * exactly one of N concurrent calls win; the audit row is written in the same transaction.
 */
export class RevocationRepository {
  constructor(private readonly knex: Knex) {}

  async revoke(req: RevocationRequest): Promise<RevocationOutcome> {
    return this.knex.transaction(async (trx) => {
      const now = new Date();
      const updated = await trx('receipts')
        .where({ id: req.receiptId, tenant: req.tenant })
        .whereNull('revoked_at')
        .update({ revoked_at: now, revoked_by: req.issuerId });
      if (updated === 1) {
        await trx('revocations').insert({
          receipt_id: req.receiptId,
          tenant: req.tenant,
          issuer_id: req.issuerId,
          api_key_id: req.apiKeyId,
          signature_timestamp: req.signatureTimestamp,
          issuer_signature: req.issuerSignature,
          revoked_at: now,
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

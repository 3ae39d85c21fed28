import type { Knex } from 'knex';
import type { RevokerRecord } from '../receipts/ports.js';
import { affectedRows } from './affected.js';
import type { RevokerAdminStore } from './ports.js';

export type { RevokerRecord } from '../receipts/ports.js';

interface RevokerRow {
  issuer_id: string;
  tenant: string;
  public_key: string;
  created_at: Date;
}

const toRecord = (r: RevokerRow): RevokerRecord => ({
  issuerId: r.issuer_id,
  tenant: r.tenant,
  publicKey: r.public_key,
  createdAt: r.created_at,
});

/**
 * Revokers: the parties authorised to revoke a tenant's receipts, managed with
 * `receipts issuers ...` and kept in the `issuers` table (the specification's name for them).
 */
export class RevokerRepository implements RevokerAdminStore {
  constructor(private readonly knex: Knex) {}

  /**
   * Registers a revoker, or replaces the key of one already registered for the same tenant. A
   * revoker id registered for another tenant is left alone: 'other_tenant' (moving a revoker
   * between tenants would silently let it revoke the new tenant's receipts).
   */
  async add(revoker: Omit<RevokerRecord, 'createdAt'>): Promise<'added' | 'other_tenant'> {
    const rows = await this.knex<RevokerRow>('issuers')
      .insert({
        issuer_id: revoker.issuerId,
        tenant: revoker.tenant,
        public_key: revoker.publicKey,
      })
      .onConflict('issuer_id')
      .merge(['public_key'])
      .where('issuers.tenant', revoker.tenant)
      .returning('issuer_id');
    return rows.length > 0 ? 'added' : 'other_tenant';
  }

  async find(issuerId: string): Promise<RevokerRecord | undefined> {
    const row = await this.knex<RevokerRow>('issuers').where({ issuer_id: issuerId }).first();
    return row ? toRecord(row) : undefined;
  }

  async list(tenant?: string): Promise<RevokerRecord[]> {
    const query = this.knex<RevokerRow>('issuers').orderBy(['tenant', 'issuer_id']);
    if (tenant) query.where({ tenant });
    return (await query).map(toRecord);
  }

  async remove(issuerId: string): Promise<boolean> {
    return affectedRows(await this.knex('issuers').where({ issuer_id: issuerId }).delete()) > 0;
  }
}

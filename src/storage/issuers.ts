import type { Knex } from 'knex';
import type { IssuerRecord } from '../receipts/ports.js';
import { affectedRows } from './affected.js';
import type { IssuerAdminStore } from './ports.js';

export type { IssuerRecord } from '../receipts/ports.js';

interface IssuerRow {
  issuer_id: string;
  tenant: string;
  public_key: string;
  created_at: Date;
}

const toRecord = (r: IssuerRow): IssuerRecord => ({
  issuerId: r.issuer_id,
  tenant: r.tenant,
  publicKey: r.public_key,
  createdAt: r.created_at,
});

/** Issuers authorised to revoke a tenant's receipts, managed with `receipts issuers ...`. */
export class IssuerRepository implements IssuerAdminStore {
  constructor(private readonly knex: Knex) {}

  /**
   * Registers an issuer, or replaces the key of one already registered for the same tenant. An
   * issuer id registered for another tenant is left alone: 'other_tenant' (moving an issuer
   * between tenants would silently let it revoke the new tenant's receipts).
   */
  async add(issuer: Omit<IssuerRecord, 'createdAt'>): Promise<'added' | 'other_tenant'> {
    const rows = await this.knex<IssuerRow>('issuers')
      .insert({ issuer_id: issuer.issuerId, tenant: issuer.tenant, public_key: issuer.publicKey })
      .onConflict('issuer_id')
      .merge(['public_key'])
      .where('issuers.tenant', issuer.tenant)
      .returning('issuer_id');
    return rows.length > 0 ? 'added' : 'other_tenant';
  }

  async find(issuerId: string): Promise<IssuerRecord | undefined> {
    const row = await this.knex<IssuerRow>('issuers').where({ issuer_id: issuerId }).first();
    return row ? toRecord(row) : undefined;
  }

  async list(tenant?: string): Promise<IssuerRecord[]> {
    const query = this.knex<IssuerRow>('issuers').orderBy(['tenant', 'issuer_id']);
    if (tenant) query.where({ tenant });
    return (await query).map(toRecord);
  }

  async remove(issuerId: string): Promise<boolean> {
    return affectedRows(await this.knex('issuers').where({ issuer_id: issuerId }).delete()) > 0;
  }
}

import type { Knex } from 'knex';
import { affectedRows } from './affected.js';
import { RowCache, type ChangeFeed } from './change-feed.js';
import type { NotaryAdminStore } from './ports.js';
import type { NotaryRecord } from '../receipts/types.js';

interface NotaryRow {
  tenant: string;
  notary_id: string;
  display_name: string;
  commission_state: string;
  commission_expires: Date | string;
  public_key_pem: string;
  certificate_der: string | null;
}

const isoDate = (value: Date | string): string =>
  value instanceof Date
    ? `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`
    : value.slice(0, 10);

const toRecord = (row: NotaryRow): NotaryRecord => ({
  tenant: row.tenant,
  notaryId: row.notary_id,
  displayName: row.display_name,
  commissionState: row.commission_state,
  commissionExpires: isoDate(row.commission_expires),
  publicKeyPem: row.public_key_pem,
  ...(row.certificate_der ? { certificateDer: row.certificate_der } : {}),
});

/** The per-tenant notary registry, managed with `receipts notaries ...`. */
export class NotaryRepository implements NotaryAdminStore {
  /** Registered notaries by tenant and id: issuance costs no round trip for them. */
  private readonly cache: RowCache<NotaryRecord>;

  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {
    this.cache = new RowCache(changes, 'notaries');
  }

  /** Adds or replaces a notary (re-adding updates the commission or rotates the key). */
  async upsert(notary: NotaryRecord): Promise<void> {
    await this.knex<NotaryRow>('notaries')
      .insert({
        tenant: notary.tenant,
        notary_id: notary.notaryId,
        display_name: notary.displayName,
        commission_state: notary.commissionState,
        commission_expires: notary.commissionExpires,
        public_key_pem: notary.publicKeyPem,
        certificate_der: notary.certificateDer ?? null,
      })
      .onConflict(['tenant', 'notary_id'])
      .merge();
    this.changes.announce('notaries');
  }

  async find(tenant: string, notaryId: string): Promise<NotaryRecord | undefined> {
    return this.cache.through(JSON.stringify([tenant, notaryId]), async () => {
      const row = await this.knex<NotaryRow>('notaries')
        .where({ tenant, notary_id: notaryId })
        .first();
      return row ? toRecord(row) : undefined;
    });
  }

  async list(tenant?: string): Promise<NotaryRecord[]> {
    const query = this.knex<NotaryRow>('notaries').orderBy(['tenant', 'notary_id']);
    if (tenant) query.where({ tenant });
    return (await query).map(toRecord);
  }

  async remove(tenant: string, notaryId: string): Promise<boolean> {
    const deleted = await this.knex('notaries').where({ tenant, notary_id: notaryId }).delete();
    this.changes.announce('notaries');
    return affectedRows(deleted) > 0;
  }
}

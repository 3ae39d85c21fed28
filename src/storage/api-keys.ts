import type { Knex } from 'knex';
import { mintToken, parseToken, secretMatches } from '../auth/api-key-token.js';
import type { ApiKeyRecord, Principal } from '../auth/ports.js';
import type { Scope } from '../auth/scopes.js';
import { RowCache, type ChangeFeed } from './change-feed.js';
import type { ApiKeyAdminStore } from './ports.js';

export type { ApiKeyRecord } from '../auth/ports.js';

interface ApiKeyRow {
  id: string;
  tenant: string;
  name: string;
  scopes: Scope[];
  secret_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  tenant: row.tenant,
  name: row.name,
  scopes: row.scopes,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export class ApiKeyRepository implements ApiKeyAdminStore {
  /**
   * Every active key, read in one query and held until a key changes (the change feed): checking
   * a known key costs no round trip. A key not in the copy is looked up by its id before it is
   * refused, because one created through another replica or the CLI works at once there, before
   * the notification reaches this one; made-up keys are bounded by the per-address limit on
   * failed authentications. While changes may go unnoticed (feed down) every check reads its row.
   */
  private readonly active: RowCache<Map<string, ApiKeyRow>>;

  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {
    this.active = new RowCache(changes, 'api_keys', 1);
  }

  /** Returns the record and the token; the token is never retrievable again. */
  async create(input: {
    tenant: string;
    name: string;
    scopes: Scope[];
  }): Promise<{ record: ApiKeyRecord; token: string }> {
    const { keyId, token, secretHash } = mintToken();
    const [row] = await this.knex<ApiKeyRow>('api_keys')
      .insert({
        id: keyId,
        tenant: input.tenant,
        name: input.name,
        scopes: input.scopes,
        secret_hash: secretHash,
      })
      .returning('*');
    // the key works at once in this process, before the store's notification arrives
    this.changes.announce('api_keys');
    return { record: toRecord(row as ApiKeyRow), token };
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.knex<ApiKeyRow>('api_keys').orderBy('created_at', 'asc');
    return rows.map(toRecord);
  }

  /** Returns false when no active key has that id. */
  async revoke(id: string): Promise<boolean> {
    const updated = await this.knex<ApiKeyRow>('api_keys')
      .where({ id })
      .whereNull('revoked_at')
      .update({ revoked_at: this.knex.fn.now() as unknown as Date });
    this.changes.announce('api_keys');
    return updated > 0;
  }

  /** The principal for a presented token, or undefined for malformed, unknown or revoked keys. */
  async authenticate(token: string): Promise<Principal | undefined> {
    const parsed = parseToken(token);
    if (!parsed) return undefined;
    const row = await this.activeKey(parsed.keyId);
    if (!row || !secretMatches(parsed.secret, row.secret_hash)) return undefined;
    return { keyId: row.id, tenant: row.tenant, scopes: new Set(row.scopes) };
  }

  private async activeKey(id: string): Promise<ApiKeyRow | undefined> {
    const one = () =>
      this.knex<ApiKeyRow>('api_keys').where({ id }).whereNull('revoked_at').first();
    if (!this.changes.live) return one();
    const all = await this.active.through('active', async () => {
      const rows = await this.knex<ApiKeyRow>('api_keys').whereNull('revoked_at');
      return new Map(rows.map((row) => [row.id, row]));
    });
    return all?.get(id) ?? one();
  }
}

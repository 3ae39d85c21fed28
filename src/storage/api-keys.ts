import type { Knex } from 'knex';
import { mintToken, parseToken, secretMatches } from '../auth/api-key-token.js';
import type { ApiKeyRecord, ApiKeyStore, Principal } from '../auth/ports.js';
import type { Scope } from '../auth/scopes.js';
import { RowCache, type ChangeFeed } from './change-feed.js';

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

export class ApiKeyRepository implements ApiKeyStore {
  /** Active keys by id, as read from the store: authentication costs no round trip. */
  private readonly cache: RowCache<ApiKeyRow>;

  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
  ) {
    this.cache = new RowCache(changes, 'api_keys');
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
    // only keys that exist are cached: random key ids cannot fill the cache
    const row = await this.cache.through(parsed.keyId, () => this.activeKey(parsed.keyId));
    if (!row || !secretMatches(parsed.secret, row.secret_hash)) return undefined;
    return { keyId: row.id, tenant: row.tenant, scopes: new Set(row.scopes) };
  }

  private activeKey(id: string): Promise<ApiKeyRow | undefined> {
    return this.knex<ApiKeyRow>('api_keys').where({ id }).whereNull('revoked_at').first();
  }
}

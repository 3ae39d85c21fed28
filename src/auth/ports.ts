import type { Scope } from './scopes.js';

/** The API key store authentication needs, implemented by src/storage/api-keys.ts. */

export interface ApiKeyRecord {
  id: string;
  tenant: string;
  name: string;
  scopes: Scope[];
  createdAt: Date;
  revokedAt: Date | null;
}

/** Who is calling: the key, its tenant and what it may do. */
export interface Principal {
  keyId: string;
  tenant: string;
  scopes: ReadonlySet<Scope>;
}

export interface ApiKeyStore {
  /** The principal for a presented token, or undefined for malformed, unknown or revoked keys. */
  authenticate(token: string): Promise<Principal | undefined>;
}

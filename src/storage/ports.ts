import type { LogStore } from '../anchoring/log-store.js';
import type { TimestampStore } from '../anchoring/timestamps.js';
import type { ApiKeyRecord, ApiKeyStore } from '../auth/ports.js';
import type { Scope } from '../auth/scopes.js';
import type {
  RevokerRecord,
  RevokerStore,
  NotaryStore,
  ReceiptStore,
  DeploymentGateStore,
  RevocationStore,
  SealNotices,
  CosignatureNotices,
  SigningKeyStore,
  TenantPolicyStore,
  NotaryTrust,
  TokenUseStore,
} from '../receipts/ports.js';
import type { ReceiptPdfStore } from '../receipts/pdf-store.js';
import type { NotaryRecord } from '../receipts/types.js';
import type { DeliveryNotices, WebhookStore } from '../webhooks/ports.js';

/**
 * Every port a storage backend implements. The domain declares what its use cases need
 * (`src/receipts/ports.ts`, `src/anchoring/log-store.ts`, `src/auth/ports.ts`); the operator's
 * registries add what only administration does (the CLI's `keys`, `issuers`, `notaries` and
 * `tenants` commands): creating, listing and removing. Those are declared here, beside the
 * adapter, because no use case of the domain creates or removes them. A second backend
 * implements `Repositories` and passes `test/storage/conformance/`.
 */

/** API keys: authentication (the domain's port) plus their lifecycle (`receipts keys ...`). */
export interface ApiKeyAdminStore extends ApiKeyStore {
  /** A new active key; the token is returned once and never retrievable again. */
  create(input: {
    tenant: string;
    name: string;
    scopes: Scope[];
  }): Promise<{ record: ApiKeyRecord; token: string }>;
  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyRecord[]>;
  /**
   * Revokes an active key (it authenticates nothing from then on); false when no active key has
   * that id. `id` is a key id as `create` made it (a UUID; the CLI refuses anything else).
   */
  revoke(id: string): Promise<boolean>;
}

/** The revokers: who may revoke a tenant's receipts (`receipts issuers ...`). */
export interface RevokerAdminStore extends RevokerStore {
  /**
   * Registers a revoker, or replaces the key of one already registered for the same tenant; a
   * revoker id registered for another tenant is left alone: 'other_tenant'.
   */
  add(revoker: Omit<RevokerRecord, 'createdAt'>): Promise<'added' | 'other_tenant'>;
  /** The tenant's revokers (every tenant's without one), by tenant then revoker id. */
  list(tenant?: string): Promise<RevokerRecord[]>;
  /** False when no revoker has that id. */
  remove(issuerId: string): Promise<boolean>;
}

/** The per-tenant notary registry (`receipts notaries ...`). */
export interface NotaryAdminStore extends NotaryStore {
  /** Adds or replaces a notary (a new commission or key); `find` sees it at once. */
  upsert(notary: NotaryRecord): Promise<void>;
  /** The tenant's notaries (every tenant's without one), by tenant then notary id. */
  list(tenant?: string): Promise<NotaryRecord[]>;
  /** False when the tenant has no notary with that id. */
  remove(tenant: string, notaryId: string): Promise<boolean>;
}

/** What a tenant pinned for its CI receipts (`receipts tenants ...`). */
export interface TenantPolicyAdminStore extends TenantPolicyStore {
  /** Pins the repositories the tenant's keys may get CI receipts for. */
  setCiRepositories(tenant: string, patterns: string[]): Promise<void>;
  /** Pins the tenant's CI profile; undefined returns it to the service default. */
  setCiProfile(tenant: string, profile: string | undefined): Promise<void>;
  /** Sets the tenant's notary trust anchors and signer rule; undefined removes them. */
  setNotaryTrust(tenant: string, trust: NotaryTrust | undefined): Promise<void>;
  /** Removes the tenant's policy; whether there was one. */
  clear(tenant: string): Promise<boolean>;
}

/** A store connection pool's figures, read when `/metrics` is scraped. */
export interface StorePoolFigures {
  used: number;
  free: number;
  /** Callers waiting for a connection. */
  pending: number;
}

/** The store itself, as readiness and `/metrics` see it: does it answer, and its pool. */
export interface StoreHealth {
  readonly kind: 'embedded' | 'postgres';
  /** Resolves once the store answers a query; rejects with the store's error when it does not. */
  ping(): Promise<void>;
  /** The connection pool's figures; undefined for a store without one. */
  pool(): StorePoolFigures | undefined;
}

/** Every store over one database: what `createRepositories` builds and a backend implements. */
export interface Repositories {
  apiKeys: ApiKeyAdminStore;
  issuers: RevokerAdminStore;
  log: LogStore;
  notaries: NotaryAdminStore;
  receipts: ReceiptStore;
  revocations: RevocationStore;
  signingKeys: SigningKeyStore;
  tenantPolicies: TenantPolicyAdminStore;
  tokenUses: TokenUseStore;
  /** Signed PDF receipts, one per receipt and state (`src/receipts/pdf-store.ts`). */
  receiptPdfs: ReceiptPdfStore;
  /** RFC 3161 tokens over the log's checkpoints (`src/anchoring/timestamps.ts`). */
  checkpointTimestamps: TimestampStore;
  /** Deployments the GitHub App gates, pending and decided (`src/receipts/deployment-gates/`). */
  deploymentGates: DeploymentGateStore;
  /** Seals by any process on this store, as they commit (`Prefer: wait`, log-waiters.ts). */
  sealNotices: SealNotices;
  /** Webhook subscriptions and the outbox's deliveries (`src/webhooks/ports.ts`). */
  webhooks: WebhookStore;
  /** Deliveries recorded or given a new time by any process on this store (the dispatcher). */
  webhookNotices: DeliveryNotices;
  /** Witness cosignatures stored by any process on this store (`Prefer: wait=N, witnessed`). */
  cosignatureNotices: CosignatureNotices;
  /** Readiness and pool figures (`/readyz`, `/metrics`). */
  health: StoreHealth;
}

import type { Decision } from '../contract/common.js';
import type { LogEntry } from './log-entries.js';
import type { Ed25519PublicJwk } from './signer.js';
import type { NotaryRecord, StoredReceipt } from './types.js';

/**
 * The stores the receipt domain needs, declared here and implemented by `src/storage/`. Each
 * method is one use-case step; transactions and SQL error codes stay inside the adapter.
 */

/** One stored receipt with its lifecycle state, as the store has it right now. */
export interface ReceiptRecord {
  id: string;
  tenant: string;
  /** The receipt as stored (body + hash + signature): what later verification re-checks. */
  receipt: StoredReceipt;
  /** The row's own creation time (orders the list); must equal the signed `createdAt`. */
  createdAt: Date;
  hasProofArtifact: boolean;
  externalId: string | null;
  revokedAt: Date | null;
  revokedBy: string | null;
  /** The audit row written with a revocation, if any (it outlives an edited `revokedAt`). */
  revocationAudit: { revokedAt: Date; issuerId: string } | null;
  /** The revocation entry the log holds for this receipt (sealed or queued), if any. */
  revocationEntry: { entry: Buffer; leafIndex: number | null } | null;
  anchor: { leafIndex: number | null; anchoredAt: Date | null; leafHash: Buffer | null };
}

export interface NewReceipt {
  tenant: string;
  receipt: StoredReceipt;
  hasProofArtifact: boolean;
  externalId?: string | undefined;
  /** The log entry queued for anchoring, when the receipt has a proof artifact. */
  logEntry?: LogEntry | undefined;
}

/** What a list item needs, without the receipt body (which can be large). */
export interface ReceiptSummary {
  id: string;
  decision: Decision;
  /** createdAt as written in the signed receipt. */
  createdAt: string;
  revoked: boolean;
  anchored: boolean;
}

/** GET /receipts filters; each one set narrows the list. */
export interface ListFilters {
  status?: 'clean' | 'compliance_gap' | 'failure' | 'revoked' | undefined;
  decision?: Decision | undefined;
  bundleId?: string | undefined;
  /** `sha256:<hex>`. */
  docHash?: string | undefined;
  externalId?: string | undefined;
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
}

export interface ReceiptPage {
  items: ReceiptSummary[];
  nextCursor: string | undefined;
}

export type InsertResult = 'created' | 'duplicate_external_id';

export interface ReceiptStore {
  /** The receipt and its log entry in one transaction; a taken (tenant, externalId) is a result. */
  insert(input: NewReceipt): Promise<InsertResult>;
  /** The tenant's receipt, or undefined: another tenant's receipt is indistinguishable from none. */
  find(tenant: string, id: string): Promise<ReceiptRecord | undefined>;
  findByExternalId(tenant: string, externalId: string): Promise<ReceiptRecord | undefined>;
  /** Any tenant's receipt with this `sha256:` hash (the public status endpoint), or undefined. */
  findByHash(receiptHash: string): Promise<ReceiptRecord | undefined>;
  /**
   * The proven CI receipts of this repository (case-insensitive) and commit, newest first, at
   * most `limit`: those proven by an OIDC token (any tenant) and those proven by the GitHub App
   * in `tenant`. Receipts that prove nothing are excluded before the limit, so no number of them
   * can push a proven one out.
   */
  findProvenCiForCommit(
    query: { repository: string; headSha: string; tenant: string },
    limit: number,
  ): Promise<ReceiptRecord[]>;
  /**
   * Those of these receipts (any tenant's) whose log entry has a position in the log: one read
   * for all of them, however many (what waiters woken by one seal ask together, log-waiters.ts).
   */
  sealedAmong(receiptIds: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * Those of these receipts whose log entry is in a checkpoint cosigned by at least `quorum` of
   * `witnesses` (names): one read for all of them, as `sealedAmong`.
   */
  witnessedAmong(
    receiptIds: readonly string[],
    witnesses: readonly string[],
    quorum: number,
  ): Promise<ReadonlySet<string>>;
  /** Newest first, keyset-paged: no duplicates or gaps across inserts; filters combine (and). */
  list(
    tenant: string,
    limit: number,
    cursor: string | undefined,
    filters?: ListFilters,
  ): Promise<ReceiptPage>;
}

export interface NotaryStore {
  find(tenant: string, notaryId: string): Promise<NotaryRecord | undefined>;
}

/**
 * A revoker: a party registered to revoke one tenant's receipts (docs/glossary.md). Its id keeps
 * the specification's name, `issuerId`, as in the `x-issuer-id` header and the store's column.
 */
export interface RevokerRecord {
  issuerId: string;
  tenant: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  publicKey: string;
  createdAt: Date;
}

export interface RevokerStore {
  find(issuerId: string): Promise<RevokerRecord | undefined>;
}

export interface RevocationRequest {
  tenant: string;
  receiptId: string;
  issuerId: string;
  apiKeyId: string;
  signatureTimestamp: string;
  issuerSignature: string;
  /** The revocation's log entry, from the receipt hash the store holds (same transaction). */
  logEntry(receiptHash: string): LogEntry;
}

export type RevocationOutcome = 'REVOKED' | 'ALREADY_REVOKED' | 'NOT_FOUND';

export interface RevocationStore {
  /** Exactly one of N concurrent calls revokes; the audit row and log entry are written with it. */
  revoke(request: RevocationRequest): Promise<RevocationOutcome>;
}

export interface SigningKeyRecord {
  jwk: Ed25519PublicJwk;
  createdAt: Date;
  retiredAt: Date | null;
}

/** An endorsement: `endorserKid` vouches, with its signature, that `subjectKid` is ours. */
export interface KeyEndorsement {
  subjectKid: string;
  endorserKid: string;
  /** base64url Ed25519 over `endorsementMessage(subject)` by the endorser. */
  signature: string;
}

export interface SigningKeyStore {
  list(): Promise<SigningKeyRecord[]>;
  endorsements(): Promise<KeyEndorsement[]>;
  /** Adds the key if the ring does not have it yet; returns whether it is retired. */
  ensureRegistered(jwk: Ed25519PublicJwk): Promise<{ retired: boolean }>;
  /** Registers `jwk` as the active key, retires every other one, stores the endorsements. */
  rotateTo(jwk: Ed25519PublicJwk, endorsements: KeyEndorsement[]): Promise<void>;
  addEndorsements(endorsements: KeyEndorsement[]): Promise<void>;
}

/** A tenant's policy: the repositories (`owner/*`, `owner/repo`) its keys may get CI receipts for. */
/** What a tenant pinned for its CI receipts; an absent field means the service default. */
export interface TenantCiPolicy {
  /** `owner/*`, `owner/repo`; undefined: every repository is allowed. */
  repositories?: string[] | undefined;
  /** The CI policy profile its receipts are judged under; undefined: ci-provenance-v1. */
  profile?: string | undefined;
}

/**
 * What a tenant trusts for the notarial signatures in its documents (`doc.signatures`): the CA
 * certificates a notary's signing certificate must chain to, and how the signer is tied to the
 * registered notary: its certificate registered with the notary (`certificate`, pinned by
 * SHA-256) or a certificate whose subject names the registered notary (`subject`).
 */
export interface NotaryTrust {
  /** DER certificates, base64. */
  anchors: string[];
  signer: 'certificate' | 'subject';
}

export interface TenantPolicyStore {
  ciPolicy(tenant: string): Promise<TenantCiPolicy>;
  /** Undefined when the tenant set no notary trust anchors. */
  notaryTrust(tenant: string): Promise<NotaryTrust | undefined>;
}

/** One presentation of a CI OIDC token: who presented it, for which request, until when. */
export interface TokenUse {
  issuer: string;
  jti: string;
  tenant: string;
  externalId: string;
  expiresAt: Date;
}

/** Single use of OIDC tokens, shared by every replica (the store). */
export interface TokenUseStore {
  /**
   * Records the use: `first` for a token never seen, `repeat` for the same tenant and externalId
   * again (a client's retry), `replayed` for any other use of a token already used.
   */
  claim(use: TokenUse): Promise<'first' | 'repeat' | 'replayed'>;
}

/**
 * A repository's default branch from a source that proves it (the GitHub App's installation
 * access), for the ci.branch check of ci-provenance-v2.
 */
export interface DefaultBranchSource {
  /** Undefined when the source cannot tell (the app is not installed there); throws if down. */
  defaultBranch(repositoryFullName: string): Promise<string | undefined>;
}

/**
 * Where the service publishes a stored receipt: the URL shapes belong to the HTTP interface
 * (`receiptLinks` of src/contract/links.ts), the domain only quotes them.
 */
export interface ReceiptLinks {
  /** Relative paths until PUBLIC_URL is known (`absolute` false). */
  receipt(id: string): { json: string; pdf: string; absolute: boolean };
}

/**
 * News of seals: entries of the log got positions, by this process or by any other on the same
 * store (another replica, the CLI). What `Prefer: wait` answers are woken by (log-waiters.ts).
 */
export interface SealNotices {
  /**
   * Calls `fn` after each seal commits, and whenever one may have gone unnoticed (the listener
   * reconnected); the returned function stops the calls.
   */
  subscribe(fn: () => void): () => void;
  /** False while a seal may go unnoticed (the listener is down): waiters then look on their own. */
  readonly live: boolean;
}

/**
 * News of witness cosignatures: a witness cosigned a checkpoint, in this process or another on
 * the same store. What `Prefer: wait=N, witnessed` answers are woken by (log-waiters.ts).
 */
export type CosignatureNotices = SealNotices;

/** Every store of the receipt domain. */
export interface ReceiptStores {
  receipts: ReceiptStore;
  notaries: NotaryStore;
  /** The revokers (named after their table, `issuers`, and the CLI's `receipts issuers`). */
  issuers: RevokerStore;
  revocations: RevocationStore;
  signingKeys: SigningKeyStore;
  tenantPolicies: TenantPolicyStore;
  tokenUses: TokenUseStore;
}

/** A deployment the GitHub App gates, as first requested. */
export interface NewDeploymentGate {
  id: string;
  tenant: string;
  installationId: number;
  /** `owner/repo`. */
  repository: string;
  environment: string;
  sha: string;
  callbackUrl: string;
  /** GitHub's deployment id: a re-run of the job asks again with a new one. */
  deploymentId: number;
  requestedAt: Date;
  /** The environment's policy as read (undefined when the file could not be read). */
  policy: unknown;
  policyHash: string | undefined;
}

export interface DeploymentGate extends NewDeploymentGate {
  state: 'pending' | 'approved' | 'rejected';
  attempts: number;
  decidedAt: Date | null;
  reason: string | null;
  /** The signed decision record, once decided. */
  record: unknown;
}

export interface DeploymentGatePage {
  items: DeploymentGate[];
  nextCursor: string | undefined;
}

/**
 * Gated deployments. Whoever holds a gate's lease decides it: the lease is taken with a
 * conditional update, so of several replicas exactly one answers GitHub at a time, and a decided
 * gate is never decided again.
 */
export interface DeploymentGateStore {
  /** Inserts the gate leased to the caller until `leaseUntil`; false when it already exists. */
  open(gate: NewDeploymentGate, leaseUntil: Date): Promise<boolean>;
  /** Leases up to `limit` pending gates whose lease is free at `now`. */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DeploymentGate[]>;
  /** Frees a pending gate's lease until `retryAt` (null: at once), counting a failed answer. */
  release(id: string, retryAt: Date | null, failed: boolean): Promise<void>;
  /** Records the decision of a pending gate; false when it was no longer pending. */
  finish(
    id: string,
    decision: { state: 'approved' | 'rejected'; reason: string; record: unknown; at: Date },
  ): Promise<boolean>;
  /** The tenant's decided gates of the repository (case-insensitive), newest first, keyset-paged. */
  listDecided(
    tenant: string,
    repository: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<DeploymentGatePage>;
}

import type { Database } from './database.js';
import type { Repositories } from './ports.js';
import { ApiKeyRepository } from './api-keys.js';
import { CheckpointTimestampRepository } from './checkpoint-timestamps.js';
import { DeploymentGateRepository } from './deployment-gates.js';
import { KnexStoreHealth } from './health.js';
import { RevokerRepository } from './issuers.js';
import { LogRepository } from './log.js';
import { NotaryRepository } from './notaries.js';
import { ReceiptPdfRepository } from './receipt-pdfs.js';
import { ReceiptRepository } from './receipts.js';
import { RevocationRepository } from './revocations.js';
import { FeedCosignatureNotices, FeedDeliveryNotices, FeedSealNotices } from './seal-notices.js';
import { SigningKeyRepository } from './signing-keys.js';
import { TenantPolicyRepository } from './tenant-policies.js';
import { TokenUseRepository } from './token-uses.js';
import { WebhookRepository } from './webhooks.js';

export type { Repositories } from './ports.js';

export interface RepositoryOptions {
  /** Largest group-commit batch of receipt inserts (ISSUE_BATCH_MAX). */
  insertBatch?: number;
  /** Receipts cached in process for reads by id (RECEIPT_CACHE_MAX; 0: none). */
  receiptCacheMax?: number;
}

/**
 * The knex implementation of every port (`ports.ts`) over one database handle, PostgreSQL or
 * PGlite; routes and the CLI reach storage only through these.
 */
export function createRepositories(db: Database, options: RepositoryOptions = {}): Repositories {
  return {
    apiKeys: new ApiKeyRepository(db.knex, db.changes),
    issuers: new RevokerRepository(db.knex),
    log: new LogRepository(db.knex, db.changes, db.kind === 'embedded'),
    notaries: new NotaryRepository(db.knex, db.changes),
    receipts: new ReceiptRepository(db.knex, db.changes, {
      insertBatch: options.insertBatch,
      cacheMax: options.receiptCacheMax,
    }),
    revocations: new RevocationRepository(db.knex, db.changes),
    signingKeys: new SigningKeyRepository(db.knex, db.changes),
    tenantPolicies: new TenantPolicyRepository(db.knex),
    tokenUses: new TokenUseRepository(db.knex),
    receiptPdfs: new ReceiptPdfRepository(db.knex),
    checkpointTimestamps: new CheckpointTimestampRepository(db.knex),
    deploymentGates: new DeploymentGateRepository(db.knex),
    sealNotices: new FeedSealNotices(db.changes),
    webhooks: new WebhookRepository(db.knex),
    webhookNotices: new FeedDeliveryNotices(db.changes),
    cosignatureNotices: new FeedCosignatureNotices(db.changes),
    health: new KnexStoreHealth(db.knex, db.kind),
  };
}

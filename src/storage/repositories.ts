import type { Database } from './database.js';
import { ApiKeyRepository } from './api-keys.js';
import { IssuerRepository } from './issuers.js';
import { LogRepository } from './log.js';
import { NotaryRepository } from './notaries.js';
import { ReceiptRepository } from './receipts.js';
import { RevocationRepository } from './revocations.js';
import { SigningKeyRepository } from './signing-keys.js';

/** Every repository over one database handle; routes and the CLI reach storage only through these. */
export interface Repositories {
  apiKeys: ApiKeyRepository;
  issuers: IssuerRepository;
  log: LogRepository;
  notaries: NotaryRepository;
  receipts: ReceiptRepository;
  revocations: RevocationRepository;
  signingKeys: SigningKeyRepository;
}

export function createRepositories(db: Database): Repositories {
  return {
    apiKeys: new ApiKeyRepository(db.knex),
    issuers: new IssuerRepository(db.knex),
    log: new LogRepository(db.knex),
    notaries: new NotaryRepository(db.knex),
    receipts: new ReceiptRepository(db.knex),
    revocations: new RevocationRepository(db.knex),
    signingKeys: new SigningKeyRepository(db.knex),
  };
}

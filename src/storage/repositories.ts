import type { Database } from './database.js';
import { ApiKeyRepository } from './api-keys.js';

/** Every repository over one database handle; routes and the CLI reach storage only through these. */
export interface Repositories {
  apiKeys: ApiKeyRepository;
}

export function createRepositories(db: Database): Repositories {
  return {
    apiKeys: new ApiKeyRepository(db.knex),
  };
}

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { openDatabase } from '../../../src/storage/database.js';
import { createRepositories, type Repositories } from '../../../src/storage/repositories.js';
import { closeStore, isPostgres, testStore } from '../../helpers/context.js';

/** One open backend: every port of src/storage/ports.ts, and how to close it. */
export interface OpenStores {
  stores: Repositories;
  close(): Promise<void>;
}

/** Opens a fresh, empty backend. A second backend brings its own factory and passes the suite. */
export type StoreFactory = () => Promise<OpenStores>;

/**
 * The knex backend: the embedded store (a copy of the run's empty cluster) or, with DATABASE_URL
 * set, a fresh PostgreSQL schema, both removed when closed.
 */
export const knexStores: StoreFactory = async () => {
  const store = testStore();
  const db = await openDatabase(store);
  return { stores: createRepositories(db), close: () => closeStore(db, store) };
};

export const backendName = (): string => (isPostgres() ? 'PostgreSQL' : 'the embedded store');

/** A port's contract: its tests, over the stores of the file's one open backend. */
export type Contract = (stores: () => Repositories) => void;

/**
 * Runs `contracts` against one backend opened by `factory` for the whole file (a store per
 * test would cost seconds each). Contracts share that store, so each one names its own tenants,
 * ids and keys (see {@link unique}) and never assumes the store is empty, except the log's,
 * which is global and runs in a file of its own.
 */
export function storeConformance(factory: StoreFactory, contracts: Record<string, Contract>) {
  describe(`store conformance on ${backendName()}`, () => {
    let open: OpenStores | undefined;
    beforeAll(async () => {
      open = await factory();
    });
    afterAll(async () => open?.close());
    const stores = (): Repositories => {
      if (!open) throw new Error('the store did not open');
      return open.stores;
    };
    for (const [name, contract] of Object.entries(contracts)) {
      describe(name, () => contract(stores));
    }
  });
}

/** A name no other test of the file uses (tenants, ids, witnesses). */
export const unique = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

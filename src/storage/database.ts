import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import type { StoreConfig } from '../config.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { migrate } from './migrations/index.js';

/** One handle on the store: real PostgreSQL (knex + pg) or embedded PGlite (knex-pglite). */
export interface Database {
  readonly knex: Knex;
  readonly kind: StoreConfig['kind'];
  close(): Promise<void>;
}

const ACQUIRE_TIMEOUT_MS = 5_000;

export async function openDatabase(
  store: StoreConfig,
  options: { migrate?: boolean } = {},
): Promise<Database> {
  const { knex, lock } = store.kind === 'postgres' ? openPostgres(store) : openEmbedded(store);
  const db: Database = {
    knex,
    kind: store.kind,
    async close() {
      await knex.destroy();
      lock?.release();
    },
  };
  try {
    if (store.kind === 'postgres' && store.schema) {
      await knex.raw('create schema if not exists ??', [store.schema]);
    }
    if (options.migrate ?? true) await migrate(knex);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

function openPostgres(store: Extract<StoreConfig, { kind: 'postgres' }>) {
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: store.url, connectionTimeoutMillis: 3_000 },
    searchPath: store.schema ? [store.schema] : undefined,
    pool: { min: 0, max: store.poolMax },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
  });
  return { knex, lock: undefined };
}

function openEmbedded(store: Extract<StoreConfig, { kind: 'embedded' }>) {
  let lock: DataDirLock | undefined;
  if (store.dataDir !== null) lock = acquireDataDirLock(store.dataDir);
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof Knex.Client,
    dialect: 'postgres',
    connection: store.dataDir === null ? {} : { filename: path.join(store.dataDir, 'pgdata') },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS * 6,
  });
  return { knex, lock };
}

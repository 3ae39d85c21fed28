import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import type { StoreConfig } from '../config.js';
import { ChangeFeed } from './change-feed.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { ThreadedPGlite } from './embedded/threaded-pglite.js';
import { migrate } from './migrations/index.js';
import { makeTreePrivate, preparePrivateDir } from './private-files.js';

/** One handle on the store: real PostgreSQL (knex + pg) or embedded PGlite (knex-pglite). */
export interface Database {
  readonly knex: Knex;
  readonly kind: StoreConfig['kind'];
  /** Invalidates the in-process caches of api_keys and notaries (see change-feed.ts). */
  readonly changes: ChangeFeed;
  close(): Promise<void>;
}

const ACQUIRE_TIMEOUT_MS = 5_000;

/** Where knex's own warnings go (pool and connection errors); the app passes its JSON logger. */
export interface StoreLog {
  warn(message: string): void;
  error(message: string): void;
}

export async function openDatabase(
  store: StoreConfig,
  options: { migrate?: boolean; log?: StoreLog } = {},
): Promise<Database> {
  const { knex, lock, files } =
    store.kind === 'postgres' ? openPostgres(store, options.log) : openEmbedded(store, options.log);
  const keepPrivate = () => {
    if (files) makeTreePrivate(files);
  };
  const changes = new ChangeFeed(knex, store.kind);
  const db: Database = {
    knex,
    kind: store.kind,
    changes,
    async close() {
      await changes.close();
      await knex.destroy();
      keepPrivate();
      lock?.release();
    },
  };
  try {
    if (store.kind === 'postgres' && store.schema) {
      await knex.raw('create schema if not exists ??', [store.schema]);
    }
    if (options.migrate ?? true) await migrate(knex);
    await changes.start();
    keepPrivate();
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

function knexLog(log: StoreLog | undefined): Knex.Config['log'] {
  if (!log) return undefined;
  const text = (message: unknown) => (message instanceof Error ? message.message : String(message));
  return {
    warn: (m: unknown) => log.warn(`knex: ${text(m)}`),
    error: (m: unknown) => log.error(`knex: ${text(m)}`),
    deprecate: (m: unknown) => log.warn(`knex deprecation: ${text(m)}`),
    debug: () => undefined,
  };
}

function openPostgres(store: Extract<StoreConfig, { kind: 'postgres' }>, log?: StoreLog) {
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString: store.url,
      connectionTimeoutMillis: 3_000,
      // a store that stops answering mid-query must not hold a request (or shutdown) for ever
      query_timeout: store.queryTimeoutMs ?? 10_000,
      keepAlive: true,
    },
    log: knexLog(log),
    searchPath: store.schema ? [store.schema] : undefined,
    pool: { min: 0, max: store.poolMax },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
  });
  return { knex, lock: undefined, files: undefined };
}

function openEmbedded(store: Extract<StoreConfig, { kind: 'embedded' }>, log?: StoreLog) {
  let lock: DataDirLock | undefined;
  let files: string | undefined;
  if (store.dataDir !== null) {
    lock = acquireDataDirLock(store.dataDir);
    files = path.join(store.dataDir, 'pgdata');
    preparePrivateDir(files);
  }
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof Knex.Client,
    dialect: 'postgres',
    // knex-pglite takes a ready-made PGlite as `connection.pglite` (its types do not say so)
    connection: { pglite: new ThreadedPGlite(files) } as Knex.StaticConnectionConfig,
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS * 6,
    log: knexLog(log),
  });
  return { knex, lock, files };
}

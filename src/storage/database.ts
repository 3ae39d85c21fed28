import { existsSync } from 'node:fs';
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
  /** Progress worth telling an operator (creating the embedded store on a first start). */
  info?(message: string): void;
}

export async function openDatabase(
  store: StoreConfig,
  options: { migrate?: boolean; log?: StoreLog } = {},
): Promise<Database> {
  const { knex, lock, files } =
    store.kind === 'postgres'
      ? openPostgres(store, options.log)
      : await openEmbedded(store, options.log);
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

/**
 * The embedded store's thread and database, ready before knex sees it: creating a new database
 * (initdb) takes seconds, and minutes on a busy machine, and is waited for as long as it takes.
 * Opened inside knex's pool instead, it would count against the pool's acquire timeout, and a
 * slow first start would fail with "Timeout acquiring a connection".
 */
async function readyPGlite(files: string | undefined, log?: StoreLog): Promise<ThreadedPGlite> {
  const creating = files !== undefined && !existsSync(path.join(files, 'PG_VERSION'));
  const started = Date.now();
  if (creating)
    log?.info?.(`creating the embedded store in ${files} (first start; this can take a minute)`);
  const pglite = new ThreadedPGlite(files);
  try {
    await pglite.waitReady;
  } catch (err) {
    await pglite.close().catch(() => undefined);
    throw err;
  }
  if (creating)
    log?.info?.(`created the embedded store in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return pglite;
}

async function openEmbedded(store: Extract<StoreConfig, { kind: 'embedded' }>, log?: StoreLog) {
  let lock: DataDirLock | undefined;
  let files: string | undefined;
  if (store.dataDir !== null) {
    lock = acquireDataDirLock(store.dataDir);
    files = path.join(store.dataDir, 'pgdata');
    preparePrivateDir(files);
  }
  let pglite: ThreadedPGlite;
  try {
    pglite = await readyPGlite(files, log);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof Knex.Client,
    dialect: 'postgres',
    // knex-pglite takes a ready-made PGlite as `connection.pglite` (its types do not say so)
    connection: { pglite } as Knex.StaticConnectionConfig,
    acquireConnectionTimeout: store.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS * 6,
    log: knexLog(log),
  });
  return { knex, lock, files };
}

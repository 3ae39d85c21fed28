import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Scope } from '../src/auth/scopes.js';
import type { StoreConfig } from '../src/config.js';
import { openDatabase } from '../src/storage/database.js';
import { createRepositories } from '../src/storage/repositories.js';
import { closeStore, ed25519Pem, tempDir } from '../test/helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../test/helpers/ron.js';
import { ROOT, startService, type Server } from './processes.js';

/**
 * The service setup the benches that load `node dist/server.js` share: a fresh store, its API key
 * and registered notary (written before the service starts: the embedded store is one process),
 * the service's environment, and the typical request (test/helpers/ron.ts: a real ES256 seal, a
 * PDF, screening against the sample list).
 */

export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/**
 * The service's WORKERS on PostgreSQL (the embedded store is single-process): `auto`, one
 * process per CPU, as an operator of a dedicated host would set it. BENCH_WORKERS=1 measures one.
 */
export const WORKERS = process.env.BENCH_WORKERS ?? 'auto';

/** A fresh store of `kind`: an embedded DATA_DIR, or a `bench_<hex>` schema on PG_URL. */
export function freshStore(kind: 'embedded' | 'postgres'): StoreConfig {
  return kind === 'postgres'
    ? { kind, url: PG_URL, schema: `bench_${randomBytes(4).toString('hex')}`, poolMax: 4 }
    : { kind, dataDir: tempDir('bench-embedded-') };
}

/** The DATA_DIR (signing keys, PDF certificate) given to a service on a PostgreSQL store. */
const serviceDirs = new WeakMap<StoreConfig, string>();

/** Removes what a fresh store left: its schema and the service's DATA_DIR, or its DATA_DIR. Never throws. */
export async function dropStore(store: StoreConfig): Promise<void> {
  const serviceDir = serviceDirs.get(store);
  if (serviceDir) fs.rmSync(serviceDir, { recursive: true, force: true });
  if (store.kind === 'embedded') {
    fs.rmSync(store.dataDir ?? '', { recursive: true, force: true });
    return;
  }
  const db = await openDatabase(store, { migrate: false }).catch(() => undefined);
  if (db) await closeStore(db, store);
}

/** The store's API key (tenant `bench`) and notary, made before the service starts. */
export async function seed(store: StoreConfig, scopes: Scope[]) {
  const db = await openDatabase(store);
  try {
    const repos = createRepositories(db);
    const { token } = await repos.apiKeys.create({ tenant: 'bench', name: 'bench', scopes });
    return { token, notary: await registerNotary(repos, 'bench') };
  } finally {
    await db.close();
  }
}

/**
 * The service's environment on `store`: a fresh signing key, the rate limits lifted, the sample
 * screening lists, everything else at its default unless `extra` sets it (the service's
 * DATABASE_POOL_MAX too: the store's poolMax is the bench's own connections).
 */
export function serviceEnv(
  store: StoreConfig,
  extra: Record<string, string> = {},
): Record<string, string> {
  let dataDir = store.kind === 'embedded' ? store.dataDir : serviceDirs.get(store);
  if (!dataDir) {
    dataDir = tempDir('bench-');
    serviceDirs.set(store, dataDir);
  }
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SIGNING_KEY: ed25519Pem(),
    RATE_LIMIT_MAX: '1000000000',
    LOG_RATE_LIMIT_MAX: '1000000000',
    SCREENING_LISTS_DIR: path.join(ROOT, 'screening-lists'),
    ...extra,
  };
  if (store.kind === 'postgres') {
    env.WORKERS = WORKERS;
    env.DATABASE_URL = store.url;
    env.DATABASE_SCHEMA = store.schema ?? 'public';
  }
  return env;
}

/** The service running on a seeded store, with the typical request's body and its API key. */
export interface BenchService {
  server: Server;
  token: string;
  notary: Notary;
  /** The typical POST /api/v1/verify body (every check passes). */
  body: string;
}

/** Seeds `store` and starts the built service on it (`startService`'s node args and log file). */
export async function startBenchService(
  store: StoreConfig,
  options: { scopes: Scope[]; env?: Record<string, string>; nodeArgs?: string[]; log?: string },
): Promise<BenchService> {
  const { token, notary } = await seed(store, options.scopes);
  const env = serviceEnv(store, options.env);
  const server = await startService(env, options.nodeArgs, options.log);
  return { server, token, notary, body: JSON.stringify(validRequest(notary)) };
}

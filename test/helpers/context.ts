import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../src/app.js';
import type { Scope } from '../../src/auth/scopes.js';
import { loadConfig, type Config, type StoreConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createRepositories, type Repositories } from '../../src/storage/repositories.js';

/**
 * Every test file gets its own store: a fresh embedded store in a DATA_DIR of its own (a copy of
 * the run's migrated cluster, see embedded-template.ts), or, when DATABASE_URL is set (the
 * PostgreSQL leg of .ci/run), a fresh schema dropped at the end. Never leftovers. `blank`: a
 * store before its first migration (an empty schema on PostgreSQL), for migration tests.
 */
export function testStore(options: { blank?: boolean } = {}): StoreConfig {
  const url = process.env.DATABASE_URL;
  if (!url) return { kind: 'embedded', dataDir: embeddedCopy(options.blank ?? false) };
  return { kind: 'postgres', url, schema: `t_${randomBytes(6).toString('hex')}`, poolMax: 10 };
}

/** A DATA_DIR holding a copy of one of the run's embedded clusters (test/helpers/embedded-template.ts). */
function embeddedCopy(blank: boolean): string {
  const template = inject(blank ? 'embeddedBlankTemplate' : 'embeddedTemplate') as
    string | undefined;
  if (!template)
    throw new Error(
      'no embedded template: this test file needs the integration tier (vitest.config.ts)',
    );
  const dir = path.join(path.dirname(template), `store-${randomBytes(6).toString('hex')}`);
  // every file is new: created exclusively, none is truncated first, which on ext4 (its
  // auto_da_alloc) writes each of the cluster's thousand files out at close and made removing
  // the copy afterwards wait seconds for that I/O
  fs.cpSync(template, dir, { recursive: true, mode: fs.constants.COPYFILE_EXCL });
  return dir;
}

/** Where embeddedCopy() puts its copies: beside the template (none without the suite's setup). */
const copiesRoot = (): string | undefined => {
  const template = inject('embeddedTemplate') as string | undefined;
  return template ? path.dirname(template) : undefined;
};

/**
 * Removes the DATA_DIR of an embedded store testStore() copied (closed first), and nothing else:
 * not a store this run's template did not make.
 */
export function removeStoreCopy(store: StoreConfig): void {
  if (store.kind !== 'embedded' || !store.dataDir) return;
  const root = copiesRoot(); // asked only here: benches close PostgreSQL stores outside vitest
  if (root && store.dataDir.startsWith(root + path.sep))
    fs.rmSync(store.dataDir, { recursive: true, force: true });
}

/**
 * The run's temp root (embedded-template.ts makes it and removes it at the end of the run), in a
 * test worker of a tier that has it; undefined outside vitest (benches) and in the unit tier.
 */
function runTempRoot(): string | undefined {
  if (!process.env.VITEST) return undefined;
  return inject('tempRoot') as string | undefined;
}

export const isPostgres = (): boolean => Boolean(process.env.DATABASE_URL);

/**
 * Whether a test about the embedded store itself (PGlite on disk in a DATA_DIR of its own,
 * whatever DATABASE_URL says) runs here: on the embedded leg only (DATABASE_URL unset: `npm
 * test`). The PostgreSQL leg and the fault suite, which set DATABASE_URL, would repeat the same
 * work on the same store.
 */
export const embeddedLeg = (): boolean => !isPostgres();

export function ed25519Pem(): string {
  return generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
}

/** A fresh folder: in the run's temp root under vitest (removed at the end), else in the tmpdir. */
export function tempDir(prefix = 'receipts-test-'): string {
  return fs.mkdtempSync(path.join(runTempRoot() ?? os.tmpdir(), prefix));
}

/** A Config as the server would parse it, with test defaults and `env` on top. */
export function testConfig(
  env: Record<string, string> = {},
  store: StoreConfig = testStore(),
): Config {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: tempDir(),
    SIGNING_KEY: ed25519Pem(),
    ANCHOR_INTERVAL_MS: '0',
    SCREENING_LISTS_DIR: path.resolve(import.meta.dirname, '../../screening-lists'),
    ...env,
  });
  return { ...config, store };
}

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  config: Config;
  repos: Repositories;
  /** Creates an API key and returns its token. */
  apiKey(scopes: Scope[], tenant?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Closes a test store and removes what it leaves behind: its PostgreSQL schema, or the embedded
 * copy testStore() made (about 40 MB).
 */
export async function closeStore(db: Database, store: StoreConfig): Promise<void> {
  if (store.kind === 'postgres' && store.schema) {
    await db.knex.raw('drop schema if exists ?? cascade', [store.schema]);
  }
  await db.close();
  removeStoreCopy(store);
}

export async function createTestContext(
  env: Record<string, string> = {},
  store: StoreConfig = testStore(),
  options: Pick<AppOptions, 'octokit'> = {},
): Promise<TestContext> {
  const config = testConfig(env, store);
  const db = await openDatabase(config.store);
  const app = await buildApp({ config, db, logger: false, ...options });
  await app.ready();
  const repos = createRepositories(db);
  return {
    app,
    db,
    config,
    repos,
    async apiKey(scopes, tenant = 'tenant-a') {
      return (await repos.apiKeys.create({ tenant, name: `test ${scopes.join(',')}`, scopes }))
        .token;
    },
    async close() {
      await app.close();
      await closeStore(db, config.store);
    },
  };
}

export const ALL_SCOPES: Scope[] = ['verify', 'read', 'anchor', 'revoke', 'webhooks'];

/** Starts the app listening on a free loopback port; returns its base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

import fs from 'node:fs';
import path from 'node:path';
import type { StoreConfig } from '../config.js';
import { CliError } from './errors.js';

/**
 * Which store a command uses, in words, and whether an embedded one exists. A CLI run from
 * another folder would otherwise open (and create) an empty `./data` there and report success
 * for a key the server never sees; so the CLI opens an embedded store only where one exists,
 * unless asked to create it (`receipts init`, or `--init`).
 */

/** PGlite writes PG_VERSION when it creates a data directory. */
export function embeddedStoreExists(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));
}

/** Refuses (exit 3) to open an embedded store that does not exist yet. */
export function requireStore(store: StoreConfig): void {
  if (store.kind !== 'embedded' || store.dataDir === null) return;
  if (embeddedStoreExists(store.dataDir)) return;
  throw new CliError(
    `no store in DATA_DIR=${store.dataDir}: nothing was changed`,
    3,
    'run this where the server runs (its DATA_DIR, default ./data), set DATA_DIR or DATABASE_URL ' +
      "to the server's store, or create a new store with `receipts init` (or add --init)",
  );
}

/** A PostgreSQL URL without its password. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.href;
  } catch {
    return 'DATABASE_URL (not shown: not a URL)';
  }
}

/** The store in words: where it is, never a password. */
export function describeStore(store: StoreConfig, viaServer = false): string {
  const where =
    store.kind === 'postgres'
      ? `PostgreSQL ${withoutPassword(store.url)}${store.schema ? ` (schema ${store.schema})` : ''}`
      : store.dataDir === null
        ? 'embedded store in memory'
        : `embedded store in ${store.dataDir}`;
  return viaServer ? `${where}, through the running server` : where;
}

import { runCli } from '../../src/cli/run.js';
import type { StoreConfig } from '../../src/config.js';
import type { Services } from '../../src/services.js';
import { openDatabase } from '../../src/storage/database.js';
import { removeStoreCopy, tempDir, testStore } from './context.js';

/** Runs the CLI in process and captures what it prints; `services`: a test app's, if given. */
export async function runCaptured(
  argv: string[],
  env: Record<string, string> = {},
  services?: Services,
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    env,
    services,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * A store the CLI shares with a server built in the same test, with the env the CLI would see:
 * a copy of the run's embedded template as its DATA_DIR (as createTestContext's stores, no
 * initdb of its own), or a fresh PostgreSQL schema when DATABASE_URL is set. `cleanup` drops
 * the schema, or removes the copy (inside the run's temp root, which the run removes anyway).
 */
export function cliFixture(extraEnv: Record<string, string> = {}) {
  const store: StoreConfig = testStore();
  const dataDir = store.kind === 'embedded' && store.dataDir ? store.dataDir : tempDir();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ANCHOR_INTERVAL_MS: '0',
    ...(store.kind === 'postgres'
      ? { DATABASE_URL: store.url, DATABASE_SCHEMA: store.schema ?? '' }
      : {}),
    ...extraEnv,
  };

  const cli = (...argv: string[]) => runCaptured(argv, env);

  async function cleanup(): Promise<void> {
    if (store.kind !== 'postgres') {
      removeStoreCopy(store);
      return;
    }
    const db = await openDatabase(store, { migrate: false });
    await db.knex.raw('drop schema if exists ?? cascade', [store.schema ?? '']);
    await db.close();
  }

  return { dataDir, store, env, cli, cleanup };
}

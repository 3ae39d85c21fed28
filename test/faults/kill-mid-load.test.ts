import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { StoreConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, embeddedLeg, ed25519Pem, tempDir, testConfig } from '../helpers/context.js';
import { samplePdf } from '../helpers/requests.js';
import { spawnServer } from '../helpers/server-process.js';
import { SAMPLE_LISTS_DIR, registerNotary, validRequest } from '../helpers/ron.js';
import {
  auditReceipts,
  call,
  childrenOf,
  eventually,
  faultStore,
  freePort,
  postgresFaultsEnabled,
  sleep,
} from './helpers.js';

/**
 * `kill -9` of the server while many issuances are in flight (group commit batches them): every
 * receipt acknowledged with a 200 is stored with its log entry and re-verifies, and no receipt is
 * half-written. On the embedded store (normal suite) and on PostgreSQL (fault suite).
 */
const CONCURRENCY = 24;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

function storeEnv(store: StoreConfig, dataDir: string): Record<string, string> {
  if (store.kind === 'embedded') return { DATA_DIR: dataDir };
  return { DATA_DIR: dataDir, DATABASE_URL: store.url, DATABASE_SCHEMA: store.schema ?? '' };
}

/**
 * With `workers` (WORKERS, PostgreSQL only), one worker is killed first and the load goes on
 * through the other and its replacement before the whole service is killed.
 */
async function killMidLoad(store: StoreConfig, workers = 1): Promise<void> {
  const dataDir = store.kind === 'embedded' ? (store.dataDir ?? '') : tempDir('faults-kill-');
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const setup: Database = await openDatabase(store);
  const repos = createRepositories(setup);
  const { token } = await repos.apiKeys.create({
    tenant: 'tenant-a',
    name: 'kill -9',
    scopes: ['verify', 'read'],
  });
  const notary = await registerNotary(repos);
  const signingKey = ed25519Pem();
  if (store.kind === 'embedded')
    await setup.close(); // one process at a time on PGlite
  else cleanups.push(async () => setup.close());

  const port = await freePort();
  const server = spawnServer(port, {
    LOG_LEVEL: 'warn',
    SIGNING_KEY: signingKey,
    SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR,
    RATE_LIMIT_MAX: '1000000',
    ANCHOR_INTERVAL_MS: '0',
    WORKERS: String(workers),
    ...storeEnv(store, dataDir),
  });
  const { child, exited, baseUrl } = server;
  const output = () => server.output();
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited:\n${output()}`);
      return (await call(baseUrl, 'GET', '/readyz', {}, undefined, 1_000)).status === 200
        ? true
        : undefined;
    },
    45_000,
    200,
  );

  const acknowledged: string[] = [];
  let killed = false;
  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      const res = await call(
        baseUrl,
        'POST',
        '/api/v1/verify',
        { 'x-api-key': token },
        {
          ...validRequest(notary, samplePdf(`kill ${w}-${i}`)),
        },
      );
      if (res.status === 200)
        acknowledged.push((JSON.parse(res.body) as { receiptId: string }).receiptId);
    }
  };
  const load = Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  await eventually(async () => (acknowledged.length >= 40 ? true : undefined), 60_000, 20);
  if (workers > 1) {
    const [victim] = childrenOf(child.pid ?? -1);
    // never process.kill(-1): as root that signals every process of the machine
    if (victim === undefined) throw new Error(`the primary has no worker:\n${output()}`);
    process.kill(victim, 'SIGKILL');
    const after = acknowledged.length + 40;
    await eventually(
      async () => (acknowledged.length >= after ? true : undefined),
      60_000,
      20,
    ).catch((err: unknown) => {
      const alive = childrenOf(child.pid ?? -1);
      throw new Error(
        `${String(err)}: ${acknowledged.length} acknowledged, of ${after} wanted, after worker ` +
          `${victim} was killed; the primary ${child.exitCode === null ? 'runs' : `exited ${child.exitCode}`} ` +
          `with workers ${alive.join(', ') || 'none'}; the service said:\n${output()}`,
      );
    });
    expect(childrenOf(child.pid ?? -1)).not.toContain(victim);
  }
  child.kill('SIGKILL');
  killed = true;
  expect((await exited).signal).toBe('SIGKILL');
  await load;
  await sleep(100);

  const config = testConfig({ SIGNING_KEY: signingKey, DATA_DIR: dataDir }, store);
  const db = await openDatabase(store);
  const app = await buildApp({ config, db, logger: false });
  try {
    const audit = await auditReceipts(app, db.knex, token, acknowledged);
    expect(audit.missing, output()).toEqual([]);
    expect(audit.unlogged).toEqual([]);
    expect(audit.notVerifying).toEqual([]);
    expect(audit.rows).toBeGreaterThanOrEqual(acknowledged.length);
  } finally {
    await app.close();
    await closeStore(db, store);
  }
}

describe('kill -9 mid-load loses no acknowledged receipt', () => {
  it.runIf(embeddedLeg())(
    'embedded store',
    async () => {
      await killMidLoad({ kind: 'embedded', dataDir: tempDir('faults-kill-embedded-') });
    },
    120_000,
  );

  it.runIf(postgresFaultsEnabled())(
    'PostgreSQL',
    async () => {
      await killMidLoad(faultStore('kill'));
    },
    120_000,
  );

  it.runIf(postgresFaultsEnabled())(
    'PostgreSQL, WORKERS=2: one worker killed, then the whole service',
    async () => {
      await killMidLoad(faultStore('kill-workers'), 2);
    },
    120_000,
  );
});

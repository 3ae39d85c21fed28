import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServer } from '../../helpers/server-process.js';
import { freePort } from '../../helpers/witness.js';
import { closeStore, embeddedLeg, tempDir } from '../../helpers/context.js';
import { openDatabase } from '../../../src/storage/database.js';

/**
 * The first start on a fresh DATA_DIR creates the embedded store (PGlite's initdb: seconds here,
 * minutes on a busy machine). It is waited for before knex's pool exists, so no pool timeout
 * applies to it: with a pool acquire timeout far shorter than initdb, a fresh store still opens,
 * and the log says it is being created and how long that took. (The same start under busy
 * cores, as a user met it, is in test/faults/busy-first-start.test.ts, which runs alone.)
 */
describe.runIf(embeddedLeg())('creating the embedded store', () => {
  it('is waited for as long as it takes, never through the pool acquire timeout', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const lines: string[] = [];
    const log = { info: (l: string) => lines.push(l), warn: () => {}, error: () => {} };
    const store = { kind: 'embedded' as const, dataDir, acquireTimeoutMs: 250 };
    const started = Date.now();
    const db = await openDatabase(store, { migrate: true, log });
    try {
      expect(Date.now() - started).toBeGreaterThan(250); // initdb alone outlasts the timeout
      const { rows } = (await db.knex.raw('select 1 as one')) as { rows: { one: number }[] };
      expect(rows).toEqual([{ one: 1 }]);
      expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(lines).toEqual([
        expect.stringMatching(/^creating the embedded store in .*pgdata/),
        expect.stringMatching(/^created the embedded store in \d+\.\d s$/),
      ]);
    } finally {
      await closeStore(db, store);
    }
  }, 120_000);
});

describe.runIf(embeddedLeg())('a start that cannot succeed', () => {
  it('says in one line what is wrong and what to do', async () => {
    const failed = spawnServer(await freePort(), { PORT: 'not-a-port' });
    const exit = await failed.exited;
    expect(exit.code).toBe(1);
    const lines = failed.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cannot start: invalid configuration: PORT: .*; fix the variables/);
  }, 60_000);
});

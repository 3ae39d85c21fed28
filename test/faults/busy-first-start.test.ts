import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ed25519Pem, tempDir } from '../helpers/context.js';
import {
  spawnServer,
  stopServer,
  waitUntilServing,
  type ServerProcess,
} from '../helpers/server-process.js';
import { freePort } from '../helpers/witness.js';

/**
 * The first start on a fresh DATA_DIR, as a new user on a busy machine meets it: the server
 * creates the embedded store (PGlite's initdb) while every core is kept busy by spinning
 * processes, waits for it as long as it takes, and serves. It runs here, alone, because the
 * spinning processes would slow every test running beside it.
 */

const burners: ChildProcess[] = [];
let server: ServerProcess | undefined;

afterAll(async () => {
  for (const burner of burners) burner.kill('SIGKILL');
  await stopServer(server);
});

/** One process per core (and one more) spinning until it is killed. */
function burnEveryCore(): void {
  for (let i = 0; i <= availableParallelism(); i += 1)
    burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

// only in `npm run test:faults`, which runs its files one at a time: the spinning processes would
// slow whatever ran beside them in the normal suite
describe.runIf(process.env.RECEIPTS_FAULT_TESTS === '1')('a first start on a busy machine', () => {
  it('creates the embedded store however long it takes, and serves', async () => {
    const dataDir = path.join(tempDir(), 'data');
    burnEveryCore();
    server = spawnServer(await freePort(), {
      DATA_DIR: dataDir,
      SIGNING_KEY: ed25519Pem(),
      ANCHOR_INTERVAL_MS: '0',
      LOG_LEVEL: 'info',
    });
    await waitUntilServing(server, 280_000);
    const output = server.output();
    expect(output).not.toMatch(/Timeout acquiring a connection/);
    expect(output).toMatch(/creating the embedded store in .*pgdata/);
    expect(output).toMatch(/created the embedded store in \d+\.\d s/);
  }, 300_000);
});

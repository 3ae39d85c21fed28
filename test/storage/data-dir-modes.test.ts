import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedLeg, tempDir } from '../helpers/context.js';
import { eventually, freePort } from '../faults/helpers.js';
import { spawnServer } from '../helpers/server-process.js';

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Entries under `dir` that its group or others may access, with their modes. */
function notPrivate(dir: string): string[] {
  return filesUnder(dir)
    .map((file) => ({ file: path.relative(dir, file), mode: fs.lstatSync(file).mode }))
    .filter(({ mode }) => (mode & 0o077) !== 0)
    .map(({ file, mode }) => `${file} ${(mode & 0o777).toString(8)}`);
}

/**
 * With DATA_DIR already present and world-writable, every file and directory
 * the server creates in it (embedded store, lock, admin socket, generated signing key) is
 * private to the service's user.
 */
describe.runIf(embeddedLeg())('files in an existing DATA_DIR', () => {
  it('are created without group or other permissions', async () => {
    const dataDir = tempDir('receipts-modes-');
    fs.chmodSync(dataDir, 0o777);
    const port = await freePort();
    const { child } = spawnServer(port, {
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      ANCHOR_INTERVAL_MS: '0',
    });
    try {
      await eventually(async () => {
        if (child.exitCode !== null) throw new Error('server exited');
        const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      }, 60_000);
      expect(filesUnder(dataDir).length).toBeGreaterThan(10);
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // and at rest, after a clean shutdown
    expect(notPrivate(dataDir)).toEqual([]);
  }, 90_000);
});

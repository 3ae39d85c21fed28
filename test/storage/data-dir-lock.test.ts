import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../src/storage/data-dir-lock.js';
import { tempDir } from '../helpers/context.js';

describe('embedded data directory lock', () => {
  it('admits one holder at a time and frees on release', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
    acquireDataDirLock(dir).release();
  });

  it('takes over a lock whose process is gone', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'receipts.lock'), '4194303 12345');
    acquireDataDirLock(dir).release();
  });

  it.runIf(fs.existsSync('/proc/self/stat'))(
    'takes over a lock whose pid now belongs to another process (pid reuse, container restarts)',
    () => {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'receipts.lock'), `${process.pid} 1`);
      const lock = acquireDataDirLock(dir);
      expect(fs.readFileSync(path.join(dir, 'receipts.lock'), 'utf8')).toMatch(
        new RegExp(`^${process.pid} \\d+$`),
      );
      lock.release();
      expect(fs.existsSync(path.join(dir, 'receipts.lock'))).toBe(false);
    },
  );
});

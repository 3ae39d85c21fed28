import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded store (PGlite) is single-process: two processes opening one data directory
 * would corrupt it. Whoever opens the directory holds `<dataDir>/receipts.lock` (our pid)
 * until it closes; a second opener gets a `DataDirLockedError` naming the holder.
 */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded data directory ${dataDir} is in use by process ${pid} (is the server running?). ` +
        'Stop it first, or point DATABASE_URL at PostgreSQL to share one store between processes.',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockPath = path.join(dataDir, 'receipts.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx', mode: 0o600 });
      return {
        release() {
          try {
            if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      if (holder === process.pid) throw new DataDirLockedError(dataDir, holder);
      fs.unlinkSync(lockPath); // stale: its process is gone
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

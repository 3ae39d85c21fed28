import fs from 'node:fs';
import { ServiceError } from '../errors.js';
import path from 'node:path';

/**
 * The embedded store (PGlite) is single-process: two processes opening one data directory
 * would corrupt it. Whoever opens the directory holds `<dataDir>/receipts.lock` until it closes;
 * a second opener gets a `DataDirLockedError` naming the holder.
 *
 * The lock records the holder's pid and, on Linux, the kernel's start time of that pid
 * (/proc/<pid>/stat field 22). A lock whose pid is gone, or is now a different process (pids
 * are reused: in a container the server is always pid 1), is stale and is taken over.
 */
export class DataDirLockedError extends ServiceError<'store_locked'> {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      'store_locked',
      `the embedded data directory ${dataDir} is in use by process ${pid} (is the server running?). ` +
        'Stop it first, or point DATABASE_URL at PostgreSQL to share one store between processes.',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

/** Start time of a process in clock ticks since boot, or undefined where /proc is unavailable. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may contain spaces: count fields after its closing parenthesis
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process recorded in a lock file is still the one running under that pid. */
function holderLive(recorded: string): { pid: number; live: boolean } {
  const [pidText, started] = recorded.trim().split(' ');
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return { pid, live: false };
  const now = startTimeOf(pid);
  if (started !== undefined && now !== undefined) return { pid, live: started === now };
  return { pid, live: pid !== process.pid || started === undefined };
}

function lockContent(): string {
  const started = startTimeOf(process.pid);
  return started === undefined ? String(process.pid) : `${process.pid} ${started}`;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockPath = path.join(dataDir, 'receipts.lock');
  const content = lockContent();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, content, { flag: 'wx', mode: 0o600 });
      return {
        release() {
          try {
            if (fs.readFileSync(lockPath, 'utf8') === content) fs.unlinkSync(lockPath);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = holderLive(fs.readFileSync(lockPath, 'utf8'));
      if (holder.live) throw new DataDirLockedError(dataDir, holder.pid);
      fs.unlinkSync(lockPath); // stale: its process is gone or its pid was reused
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

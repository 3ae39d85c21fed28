import { readdirSync, readFileSync } from 'node:fs';
import { childPids, statFields } from '../test/helpers/proc.js';

/** CPU time from Linux /proc: of a process tree, of the database server, of the whole machine. */

/** USER_HZ: /proc counts CPU time in hundredths of a second on Linux. */
export const MS_PER_JIFFY = 10;

/**
 * utime + stime in milliseconds (fields 14 and 15 of /proc/<pid>/stat) of a process and all its
 * live descendants: with WORKERS > 1 the service is a primary and its workers.
 */
export function cpuMillis(pid: number): number {
  const fields = statFields(pid);
  const own = fields ? (Number(fields[11]) + Number(fields[12])) * MS_PER_JIFFY : 0;
  return childPids(pid).reduce((total, child) => total + cpuMillis(child), own);
}

/** Busy and total jiffies of the whole machine (the first line of /proc/stat). */
export function machineJiffies(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0); // idle + iowait
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** The command name of a process (field 2 of /proc/<pid>/stat), undefined once it is gone. */
function commandName(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  } catch {
    return undefined;
  }
}

/**
 * Pids of the PostgreSQL postmasters on this machine: processes named `postgres` whose parent is
 * not. Every backend, the WAL writer and the checkpointer are their children. Empty when the
 * database runs elsewhere (another host, a container whose processes are hidden).
 */
export function postmasterPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      if (commandName(pid) !== 'postgres') return false;
      const parent = Number(statFields(pid)?.[1]);
      return commandName(parent) !== 'postgres';
    });
}

/**
 * CPU milliseconds of the PostgreSQL servers on this machine: each postmaster, its live children,
 * and the children that exited and were waited for (cutime + cstime, fields 16 and 17), so a
 * backend that closed during a run still counts. It counts every database on the server.
 */
export function databaseCpuMillis(postmasters: number[]): number {
  return postmasters.reduce((total, pid) => {
    const fields = statFields(pid);
    const exited = fields ? (Number(fields[13]) + Number(fields[14])) * MS_PER_JIFFY : 0;
    return total + cpuMillis(pid) + exited;
  }, 0);
}

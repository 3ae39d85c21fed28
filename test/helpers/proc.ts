import { readdirSync, readFileSync } from 'node:fs';

/**
 * Linux /proc, for the tests and benches that watch the service's processes (a primary and its
 * workers with WORKERS > 1).
 */

/**
 * The fields of /proc/<pid>/stat after the command name: [0] is field 3 (state), [1] the parent
 * pid, [11] and [12] utime and stime. Undefined once the process is gone.
 */
export function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Pids of the processes whose parent is `pid`, zombies included. */
export function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((child) => Number(statFields(child)?.[1]) === pid);
}

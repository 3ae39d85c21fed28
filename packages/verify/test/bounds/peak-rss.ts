import { readFileSync, writeSync } from 'node:fs';

/**
 * Loaded with `--import` ahead of the CLI: when the process exits, writes its peak resident memory
 * to stderr as `peak-rss-kib N`. /proc's VmHWM starts afresh at exec, so it is this process's own
 * (getrusage's maxrss, behind process.resourceUsage(), can carry the spawning process's peak).
 */
process.on('exit', () => {
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  writeSync(2, `\npeak-rss-kib ${hwm?.[1] ?? 'unknown'}\n`);
});

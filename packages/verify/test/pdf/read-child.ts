import { readFileSync } from 'node:fs';
import { readBundle } from '../../src/read.js';

/**
 * Reads one file with readBundle in a fresh process and prints the outcome with the process's
 * peak memory, so a test can bound what a hostile file costs.
 */
const bytes = new Uint8Array(readFileSync(process.argv[2] ?? ''));
const start = performance.now();
const read = await readBundle(bytes);
const ms = Math.round(performance.now() - start);
const maxRssMiB = Math.round(peakRssKiB() / 1024);
const reason = read.ok ? undefined : read.reason;
process.stdout.write(`${JSON.stringify({ ok: read.ok, reason, ms, maxRssMiB })}\n`);

/**
 * This process's peak resident memory in KiB: /proc's VmHWM, which starts afresh at exec. (Linux's
 * getrusage maxrss, behind process.resourceUsage(), keeps the peak of the process that spawned
 * this one, so a test runner's own memory would show up as the reader's.)
 */
function peakRssKiB(): number {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    if (hwm?.[1]) return Number(hwm[1]);
  } catch {
    // not Linux: getrusage's figure, which is this process's own on other systems
  }
  return process.resourceUsage().maxRSS;
}

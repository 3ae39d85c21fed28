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
const maxRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
const reason = read.ok ? undefined : read.reason;
process.stdout.write(`${JSON.stringify({ ok: read.ok, reason, ms, maxRssMiB })}\n`);

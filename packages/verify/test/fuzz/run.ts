import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fuzz, type FuzzReport } from './fuzz.js';
import { TARGETS } from './targets.js';

/**
 * `npm run fuzz [-- --seconds N] [--target NAME]... [--seed N]`: each target (all by default)
 * for N seconds (default 10, or FUZZ_SECONDS), then a table of runs, executions per second and
 * corpus size. An input that breaks a target is written to crashes/<target>-<sha256>.bin, where
 * the target's regression test and every later run pick it up; the exit status is then 1.
 */
const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    target: { type: 'string', multiple: true },
    seed: { type: 'string' },
  },
});
const seconds = Number(values.seconds ?? process.env.FUZZ_SECONDS ?? 10);
if (!(seconds > 0)) throw new Error('--seconds must be a positive number');
const names = values.target ?? TARGETS.map((t) => t.name);
const unknown = names.filter((n) => !TARGETS.some((t) => t.name === n));
if (unknown.length > 0) {
  throw new Error(`unknown target ${unknown.join(', ')}: ${TARGETS.map((t) => t.name).join(', ')}`);
}

const reports: FuzzReport[] = [];
for (const target of TARGETS.filter((t) => names.includes(t.name))) {
  const report = await fuzz(target, {
    seconds,
    ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
  });
  reports.push(report);
  if (report.failure) {
    const sha = createHash('sha256').update(report.failure.input).digest('hex').slice(0, 16);
    const file = join(import.meta.dirname, 'crashes', `${target.name}-${sha}.bin`);
    writeFileSync(file, report.failure.input);
    console.log(`${target.name}: FAILED (seed ${report.seed}): ${report.failure.error}`);
    console.log(`  the shrunk input (${report.failure.input.length} bytes) is in ${file}`);
  }
  const rate = (report.runs / (report.ms / 1000)).toFixed(0);
  console.log(
    `${target.name.padEnd(15)} ${String(report.runs).padStart(8)} runs ${rate.padStart(6)}/s  corpus ${report.corpus}`,
  );
}
process.exitCode = reports.some((r) => r.failure) ? 1 : 0;

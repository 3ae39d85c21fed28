import { describe, expect, it } from 'vitest';
import { exercise, fuzz } from './fuzz.js';
import { crashesOf } from './seeds.js';
import { TARGETS } from './targets.js';

/**
 * Every fuzz target for a short fixed number of runs (its `ciRuns`), then every committed crash
 * of it (crashes/) again. `npm run fuzz` runs the same targets for longer (README.md).
 */
describe('fuzz targets (a short fixed budget)', () => {
  for (const target of TARGETS) {
    it(`${target.name}: ${target.parser}`, async () => {
      for (const crash of crashesOf(target.name)) await exercise(target, crash);
      const report = await fuzz(target, { numRuns: target.ciRuns });
      const rate = Math.round(report.runs / (report.ms / 1000));
      console.log(
        `${target.name}: ${report.runs} runs, ${rate}/s, corpus ${report.corpus}, seed ${report.seed}`,
      );
      expect(report.failure?.error, `seed ${report.seed}`).toBeUndefined();
      expect(report.runs).toBe(target.ciRuns);
    });
  }
});

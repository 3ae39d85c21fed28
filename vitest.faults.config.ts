import { defineConfig } from 'vitest/config';
import { verifyAliases } from './vitest.config.js';

/**
 * Fault-injection tests (`npm run test:faults`): they terminate backends and stop and start the
 * machine's PostgreSQL, so they run alone, one file at a time, and never in the normal suite
 * (the PostgreSQL ones only run when RECEIPTS_FAULT_TESTS=1, which only this config sets).
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:faults
 */
export default defineConfig({
  resolve: { alias: verifyAliases },
  test: {
    include: ['test/faults/**/*.test.ts'],
    // the run's temp root for tempDir(), removed at the end; without DATABASE_URL, the template
    globalSetup: ['test/helpers/leftover-schemas.ts', 'test/helpers/embedded-template.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 90_000,
    reporters: ['default'],
    env: { RECEIPTS_FAULT_TESTS: '1' },
  },
});

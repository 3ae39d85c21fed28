import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** The verifier package is tested from its sources (its package.json "verification-receipts-source" condition). */
const verifySource = (sub: string) =>
  fileURLToPath(new URL(`./packages/verify/src/${sub}`, import.meta.url));

export const verifyAliases = [
  { find: /^@verification-receipts\/verify$/, replacement: verifySource('index.ts') },
  { find: /^@verification-receipts\/verify\/log$/, replacement: verifySource('log/index.ts') },
  {
    find: /^@verification-receipts\/verify\/internals$/,
    replacement: verifySource('internals.ts'),
  },
  { find: /^@verification-receipts\/verify\/cli$/, replacement: verifySource('cli/main.ts') },
];

/** Every test file of the normal suite (the fault suite has its own: vitest.faults.config.ts). */
export const ALL_TESTS = ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'];

/**
 * The unit tier (`npm run test:unit`, under a minute): files that start no store, no server, no
 * process and no browser, and reach no network. A file is unit by its name, `*.unit.test.ts`;
 * every other test file is the integration tier. test/architecture/tiers.unit.test.ts fails if a
 * unit file imports (directly or through a local module) test/helpers/context.ts, src/storage,
 * src/app.ts, playwright-core or node:child_process. A new test file starts as `*.test.ts`
 * (integration); rename it to `*.unit.test.ts` once it qualifies.
 */
export const UNIT_TESTS = ['test/**/*.unit.test.ts', 'packages/*/test/**/*.unit.test.ts'];

export default defineConfig({
  resolve: { alias: verifyAliases },
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          // pure CPU work: worker threads that keep their module cache between files (about half
          // the CPU time of a fresh process per file), one per CPU (vitest's default leaves one
          // CPU to its main process). tiers.unit.test.ts keeps module mocks and global stubs out.
          pool: 'threads',
          isolate: false,
          maxWorkers: availableParallelism(),
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL_TESTS,
          exclude: [...configDefaults.exclude, ...UNIT_TESTS],
          // Files share a worker and its module cache (each fresh process re-evaluated the app's
          // module graph, about as much CPU as the tests themselves), and as many workers run as
          // there are CPUs: much of this tier waits on stores, child processes and timers.
          // Files leave no mocks, stubs or environment behind
          // (test/architecture/tiers.unit.test.ts), and each opens its own store.
          isolate: false,
          maxWorkers: availableParallelism(),
          // the run's temp root and embedded templates (initdb, migrations): only this tier pays
          globalSetup: ['test/helpers/leftover-schemas.ts', 'test/helpers/embedded-template.ts'],
        },
      },
    ],
  },
});

import { test as base } from 'vitest';
import { createTestContext } from './context.js';

/**
 * `test` (and `it`) with the app on a store of its own, shared by the tests of one file: `ctx`
 * (createTestContext() with the test defaults, closed after the file's last test) and `key`, an API
 * key of tenant-a with the verify and read scopes. Both are made on first use, so a file whose
 * tests are all skipped opens no store. A file that needs other settings or keys calls
 * createTestContext itself.
 */
export const test = base
  // vitest reads a fixture's dependencies from the destructuring of its first parameter
  // eslint-disable-next-line no-empty-pattern -- this one has none
  .extend('ctx', { scope: 'file' }, async ({}, { onCleanup }) => {
    const ctx = await createTestContext();
    onCleanup(() => ctx.close());
    return ctx;
  })
  .extend('key', { scope: 'file' }, async ({ ctx }) => ctx.apiKey(['verify', 'read']));

export const it = test;

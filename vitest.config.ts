import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The verifier package is tested from its sources (its package.json "verification-receipts-source" condition). */
const verifySource = (sub: string) =>
  fileURLToPath(new URL(`./packages/verify/src/${sub}`, import.meta.url));

export const verifyAliases = [
  { find: /^@verification-receipts\/verify$/, replacement: verifySource('index.ts') },
  { find: /^@verification-receipts\/verify\/log$/, replacement: verifySource('log/index.ts') },
  { find: /^@verification-receipts\/verify\/cli$/, replacement: verifySource('cli/main.ts') },
];

export default defineConfig({
  resolve: { alias: verifyAliases },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/helpers/leftover-schemas.ts', 'test/helpers/embedded-template.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});

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
 * process and no browser, and reach no network. A file belongs here only if it is listed below;
 * everything else is the integration tier. test/architecture/tiers.test.ts fails if a file
 * listed here imports (directly or through a local module) test/helpers/context.ts, src/storage,
 * src/app.ts, playwright-core or node:child_process. A new test file starts in the integration
 * tier; list it here once it qualifies.
 */
export const UNIT_TESTS = [
  // the verifier package on recorded fixtures (pdf/bomb.test.ts spawns a child: integration)
  'packages/verify/test/{verify,webhook,exports,tampering,pinning,artifact}.test.ts',
  'packages/verify/test/{cli,log}/**/*.test.ts',
  'packages/verify/test/pdf/{attachment,endorsement,text,revisions,revisions-structure,revisions-fuzz}.test.ts',
  // hostile inputs read in process (bounds/cli.test.ts spawns the CLI: integration)
  'packages/verify/test/bounds/regressions.test.ts',
  // the domain: canonical form, checks, policy, revocation, screening, seals
  'test/receipts/{canonical,ci-proof,log-waiters,policy,pq-signer,revocation,seal,seal-interop}.test.ts',
  'test/receipts/checks/**/*.test.ts',
  'test/screening/**/*.test.ts',
  'test/files/{screening-lists,signing-key-file}.test.ts',
  // anchoring: Merkle tree, proofs, checkpoints, tiles (go-tlog.test.ts builds Go: integration)
  'test/anchoring/{audited-entries,checkpoint,compact-range,cosignature-mldsa,merkle,proofs,sealer,tile-path}.test.ts',
  'test/timestamping/{token-checks,x509-extensions}.test.ts',
  // contract, configuration, pure HTTP helpers, PDF layout and rendering
  'test/contract/base64.test.ts',
  'test/{config,bounded-body,retry}.test.ts',
  'test/cluster/slots.test.ts',
  'test/http/{json-depth,prefer,request-hygiene,turn-gate}.test.ts',
  'test/http/plugins/json-body.test.ts',
  'test/pdf/**/*.test.ts',
  'test/pdf-signature/crl.test.ts',
  'test/cli/log-monitor-origin.test.ts',
  'test/webhooks/addresses.test.ts',
  'test/github/{app-permissions,deployment-callback,deployment-policy,policy-check}.test.ts',
  'test/verifier/{pdf-binding,reason-labels}.test.ts',
  // files read as text: the action's YAML, the Dockerfile, the lockfile, the import rules
  'test/action/{action-yml,backoff}.test.ts',
  'test/docker/{dockerfile,dockerignore}.test.ts',
  'test/architecture/{dependencies,engines,import-cycles,import-rules,tiers,verifier-imports,verify-command}.test.ts',
];

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
          // CPU to its main process). tiers.test.ts keeps module mocks and global stubs out.
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
          // Files leave no mocks, stubs or environment behind (test/architecture/tiers.test.ts),
          // and each opens its own store.
          isolate: false,
          maxWorkers: availableParallelism(),
          // the run's temp root and embedded templates (initdb, migrations): only this tier pays
          globalSetup: ['test/helpers/leftover-schemas.ts', 'test/helpers/embedded-template.ts'],
        },
      },
    ],
  },
});

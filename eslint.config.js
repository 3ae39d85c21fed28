import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Import paths a folder may not use; type-only imports count too. */
const forbid = (...groups) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: groups.map(([group, message]) => ({ group, message })),
    },
  ],
});

const STORE_DRIVERS = [
  ['knex', 'knex-pglite', 'pg', '@electric-sql/pglite'],
  'the domain declares ports; src/storage implements them with knex/pg',
];
const STORAGE = [
  ['**/storage/**'],
  'the domain declares its ports; storage depends on it, not back',
];
const HTTP = [['**/http/**'], 'HTTP is an adapter over the domain: nothing below it imports it'];
const FASTIFY = [['fastify', 'fastify-*', '@fastify/*'], 'the domain knows nothing of Fastify'];
const CONFIG = [
  ['**/config.js', '**/config.ts', '**/config'],
  'the domain is given values, never the configuration: the composition root reads it',
];
const FILES = [
  ['node:fs', 'node:fs/*', 'fs', 'fs/*'],
  'the domain touches no file: an adapter in src/files reads them behind a port',
];

export default tseslint.config(
  { ignores: ['dist/**', 'packages/*/dist/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // The layout's import rules (CONTRIBUTING.md "Layout"), enforced so they stay true.
  {
    files: [
      'src/receipts/**',
      'src/anchoring/**',
      'src/screening/**',
      'src/auth/**',
      'src/webhooks/**',
      'src/errors.ts',
    ],
    rules: forbid(STORAGE, HTTP, STORE_DRIVERS, FASTIFY, CONFIG, FILES, [
      ['**/github/**', '**/cli/**', '**/files/**'],
      'edges depend on the domain, not back',
    ]),
  },
  {
    files: ['src/files/**'],
    rules: forbid(STORAGE, HTTP, STORE_DRIVERS, FASTIFY),
  },
  {
    files: ['src/storage/**'],
    rules: forbid(HTTP, FASTIFY, [
      [
        '**/github/**',
        '**/cli/**',
        '**/files/**',
        '**/pdf/**',
        '**/timestamping/**',
        '**/cluster/**',
        '**/services.js',
        '**/app.js',
      ],
      "storage implements the domain's ports: it depends on the domain, never on an edge",
    ]),
  },
  {
    files: ['src/timestamping/**'],
    rules: forbid(
      STORAGE,
      HTTP,
      STORE_DRIVERS,
      FASTIFY,
      [
        [
          '**/github/**',
          '**/cli/**',
          '**/receipts/**',
          '!**/receipts/pdf-store.js',
          '!**/receipts/certificate-revocation.js',
          '**/services.js',
          '**/app.js',
        ],
        'time-stamping serves the log, the PDF signer and the PDF store through their ports',
      ],
      [
        [
          '**/pdf/*.js',
          '**/pdf/sign/*.js',
          '!**/pdf/sign/index.js',
          '!**/pdf/sign/pades.js',
          '!**/pdf/sign/long-term.js',
          '!**/pdf/sign/revocation.js',
          '!**/pdf/sign/crl.js',
        ],
        "time-stamping uses the PDF signer's port and its B-LTA steps (the DSS's CRLs included); DER is written by src/asn1",
      ],
    ),
  },
  // The DER writer both the PDF signer and the time-stamp client use: bytes in, bytes out.
  {
    files: ['src/asn1/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./|node:buffer$)',
              message:
                'the DER writer depends on nothing: the PDF signer and the time-stamp client both use it',
            },
          ],
        },
      ],
    },
  },

  {
    files: ['src/cluster/**'],
    rules: forbid(STORAGE, HTTP, STORE_DRIVERS, FASTIFY, [
      [
        '**/receipts/**',
        '**/anchoring/**',
        '**/github/**',
        '**/cli/**',
        '**/pdf/**',
        '**/services.js',
        '**/app.js',
      ],
      'the process supervisor knows nothing of the app it runs',
    ]),
  },
  {
    files: ['src/pdf/**', 'src/contract/**'],
    rules: forbid(STORAGE, HTTP, STORE_DRIVERS),
  },
  {
    files: ['src/github/**'],
    rules: forbid(HTTP, [
      ['knex', 'knex-pglite', 'pg'],
      'the GitHub App reaches the store through the domain',
    ]),
  },
  {
    files: ['src/cli/**'],
    rules: forbid(HTTP),
  },
  // The adapters call use cases: every store (`Services.stores`) is the CLI's admin commands'
  // alone, and the store's knex handle is storage's.
  {
    files: ['src/http/**', 'src/github/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='stores']",
          message:
            "an adapter calls the domain's use case, never a store: Services.stores is the CLI's",
        },
        {
          selector: "ObjectPattern > Property[key.name='stores']",
          message:
            "an adapter calls the domain's use case, never a store: Services.stores is the CLI's",
        },
        {
          selector: "MemberExpression[property.name='knex']",
          message:
            "the knex handle is storage's: read the store through its port (StoreHealth, ...)",
        },
      ],
    },
  },
  // src/config.ts is the only reader of the environment; everything else receives a Config.
  {
    files: ['src/**'],
    ignores: ['src/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'src/config.ts is the only reader of process.env: receive a Config instead',
        },
      ],
    },
  },
  // The relying party's verifier runs in browsers too, installs on its own and shares no code
  // with the issuing side: only its command line (src/cli) may use Node built-ins.
  {
    files: ['packages/verify/src/**'],
    ignores: ['packages/verify/src/cli/**'],
    rules: forbid(
      [['node:*'], 'the verifier runs in the browser: no Node built-in outside its cli/'],
      [['../../../*', '../../../../*'], 'the verifier package is self-contained'],
    ),
  },
  {
    files: ['packages/verify/src/cli/**'],
    rules: forbid([['../../../*'], 'the verifier package is self-contained']),
  },
  {
    files: ['src/verify-page/**'],
    rules: forbid(
      [['node:*'], 'the verify page runs in the browser: no Node built-in'],
      [['../*'], 'the verify page uses the verifier package only'],
    ),
  },
  {
    files: ['scripts/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);

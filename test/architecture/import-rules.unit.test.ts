import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The rule ids an import line gets when it sits in `file` (a path inside src/). */
async function violations(file: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const x = 1;\n`, {
    filePath: path.join(root, file),
  });
  return (result?.messages ?? [])
    .map((m) => m.ruleId ?? 'fatal')
    .filter((rule) => rule !== '@typescript-eslint/no-unused-vars');
}

describe('the layout import rules are enforced by lint', () => {
  const domain = [
    'src/receipts/example.ts',
    'src/anchoring/example.ts',
    'src/screening/example.ts',
    'src/auth/example.ts',
  ];
  const forbidden = [
    "import type { Knex } from 'knex';",
    "import pg from 'pg';",
    "import type { ReceiptRecord } from '../storage/receipts.js';",
    "import { ApiError } from '../http/api-error.js';",
    "import type { FastifyInstance } from 'fastify';",
    "import type { Config } from '../config.js';",
    "import { loadConfig } from '../config.js';",
    "import fs from 'node:fs';",
    "import { readFile } from 'node:fs/promises';",
    "import { readFileSync } from 'fs';",
    "import { loadKeySource } from '../files/signing-key-file.js';",
  ];
  for (const file of domain) {
    for (const line of forbidden) {
      it(`${file} may not: ${line}`, async () => {
        expect(await violations(file, line)).toContain('no-restricted-imports');
      });
    }
  }

  it('a module deeper in the domain may not import config, storage or files either', async () => {
    for (const line of [
      "import type { Config } from '../../config.js';",
      "import type { Database } from '../../storage/database.js';",
      "import { stat } from 'node:fs/promises';",
    ]) {
      for (const file of ['src/receipts/checks/example.ts', 'src/anchoring/witness/example.ts']) {
        expect(await violations(file, line), `${file}: ${line}`).toContain('no-restricted-imports');
      }
    }
  });

  it('the domain may not import the modules of src/config/ either', async () => {
    for (const line of [
      "import { ConfigError } from '../config/error.js';",
      "import { EnvSchema } from '../config/env-schema.js';",
    ]) {
      expect(await violations('src/receipts/example.ts', line), line).toContain(
        'no-restricted-imports',
      );
    }
  });

  it('the GitHub App may not import src/http', async () => {
    const line = "import { ApiError } from '../http/api-error.js';";
    expect(await violations('src/github/example.ts', line)).toContain('no-restricted-imports');
  });

  it("an adapter (src/http, src/github) reaches no store: Services.stores is the CLI's", async () => {
    const adapters = [
      'src/http/routes/example.ts',
      'src/http/plugins/example.ts',
      'src/github/example.ts',
      'src/github/handlers/example.ts',
    ];
    const reads = [
      "await app.services.stores.deploymentGates.listDecided('t', 'o/r', 50, undefined);",
      'const { stores } = app.services;',
      'await deps.services.stores.receiptPdfs.get(id, state);',
      "await app.db.knex.raw('select 1');",
    ];
    for (const file of adapters) {
      for (const line of reads) {
        expect(await violations(file, line), `${file}: ${line}`).toContain('no-restricted-syntax');
      }
    }
    const useCase = "await app.services.deploymentGates.decided('t', 'o/r', 50, undefined);";
    expect(await violations('src/http/routes/example.ts', useCase)).toEqual([]);
    const admin = 'await services.stores.apiKeys.list();';
    expect(await violations('src/cli/commands/example.ts', admin)).toEqual([]);
  });

  const edges: [string, string[], string[]][] = [
    [
      'src/storage/example.ts',
      [
        "import { ApiError } from '../http/api-error.js';",
        "import { createServices } from '../services.js';",
        "import { signPades } from '../pdf/sign/pades.js';",
        "import { runCli } from '../cli/run.js';",
        "import { loadKeySource } from '../files/signing-key-file.js';",
        "import { startTimestamping } from '../timestamping/index.js';",
      ],
      [
        "import type { ReceiptStore } from '../receipts/ports.js';",
        "import type { Knex } from 'knex';",
        "import type { Config } from '../config.js';",
      ],
    ],
    [
      'src/timestamping/example.ts',
      [
        "import type { Database } from '../storage/database.js';",
        "import { ApiError } from '../http/api-error.js';",
        "import type { Knex } from 'knex';",
        "import { ReceiptIssuer } from '../receipts/issuance.js';",
        "import { signCms } from '../pdf/sign/cms.js';",
        "import { renderReceiptPdf } from '../pdf/receipt-pdf.js';",
      ],
      [
        "import type { CheckpointTimestamps } from '../anchoring/timestamps.js';",
        "import type { ReceiptPdfStore } from '../receipts/pdf-store.js';",
        "import type { Config } from '../config.js';",
        "import type { SignatureTimestamper } from '../pdf/sign/pades.js';",
        "import { archive } from '../pdf/sign/long-term.js';",
        "import { seq } from '../asn1/der.js';",
      ],
    ],
    [
      'src/asn1/example.ts',
      [
        "import { canonicalJson } from '../receipts/canonical.js';",
        "import { signPades } from '../pdf/sign/pades.js';",
        "import fs from 'node:fs';",
        "import { z } from 'zod';",
      ],
      ["import { Buffer } from 'node:buffer';", "import { tlv } from './der.js';"],
    ],
    [
      'src/cluster/example.ts',
      [
        "import { buildApp } from '../app.js';",
        "import { ReceiptIssuer } from '../receipts/issuance.js';",
        "import { AnchorService } from '../anchoring/anchor-service.js';",
        "import type { Database } from '../storage/database.js';",
      ],
      ["import type { Config } from '../config.js';", "import cluster from 'node:cluster';"],
    ],
  ];
  for (const [file, refused, allowed] of edges) {
    it(`${file} keeps to its README's imports`, async () => {
      for (const line of refused) {
        expect(await violations(file, line), line).toContain('no-restricted-imports');
      }
      for (const line of allowed) expect(await violations(file, line), line).toEqual([]);
    });
  }

  it('the verifier package imports no Node built-in (but in its cli/) and nothing outside itself', async () => {
    for (const line of [
      "import { createHash } from 'node:crypto';",
      "import { canonicalJson } from '../../../src/receipts/canonical.js';",
      "import { leafHash } from '../../../../src/anchoring/merkle.js';",
    ]) {
      expect(await violations('packages/verify/src/log/example.ts', line), line).toContain(
        'no-restricted-imports',
      );
    }
    const own = "import { sha256 } from '../primitives.js';";
    expect(await violations('packages/verify/src/log/example.ts', own)).toEqual([]);
    const fs = "import fs from 'node:fs';";
    expect(await violations('packages/verify/src/cli/example.ts', fs)).toEqual([]);
    const service = "import { loadConfig } from '../../../../src/config.js';";
    expect(await violations('packages/verify/src/cli/example.ts', service)).toContain(
      'no-restricted-imports',
    );
  });

  it('the domain may import its own modules and the contract', async () => {
    const line = "import type { Decision } from '../contract/common.js';";
    expect(await violations('src/receipts/example.ts', line)).toEqual([]);
  });
});

describe('src/config.ts is the only reader of process.env', () => {
  /** The rule ids `source` gets when it sits in `file` (a path inside src/). */
  async function rulesOf(file: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
    return (result?.messages ?? []).map((m) => m.ruleId ?? 'fatal');
  }
  const reads = [
    'export const port = process.env.PORT;',
    "export const port = process['env'].PORT;",
    'const { env } = process;\nexport const port = env.PORT;',
  ];

  it('src/config.ts may read it', async () => {
    for (const source of reads) {
      expect(await rulesOf('src/config.ts', source), source).not.toContain(
        'no-restricted-properties',
      );
    }
  });

  it('no other file of src/ may, src/config/ included', async () => {
    for (const file of [
      'src/config/derived.ts',
      'src/config/env-schema.ts',
      'src/cli/run.ts',
      'src/server.ts',
      'src/receipts/example.ts',
    ]) {
      for (const source of reads) {
        expect(await rulesOf(file, source), `${file}: ${source}`).toContain(
          'no-restricted-properties',
        );
      }
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { cliFixture, runCaptured } from '../helpers/cli.js';
import { embeddedLeg, ed25519Pem, isPostgres, tempDir, testConfig } from '../helpers/context.js';

/**
 * The CLI opens an embedded store only where one exists (else it names DATA_DIR and changes
 * nothing), creates one only when asked (`receipts init`, `--init`), and every write command
 * says which store it used.
 */
const fixture = cliFixture({ SIGNING_KEY: ed25519Pem() });
afterAll(fixture.cleanup);

function freshDataDir(): string {
  return path.join(tempDir('receipts-store-'), 'data');
}

describe('which store the CLI uses', () => {
  it.runIf(embeddedLeg())(
    'refuses to create an embedded store unasked, naming DATA_DIR (exit 3, nothing created)',
    async () => {
      const dataDir = freshDataDir();
      const res = await runCaptured(
        ['keys', 'create', '--tenant', 'acme', '--name', 'n', '--scopes', 'read'],
        { DATA_DIR: dataDir },
      );
      expect(res.code).toBe(3);
      expect(res.out).toBe('');
      expect(res.err.split('\n')).toEqual([
        `error: no store in DATA_DIR=${dataDir}: nothing was changed`,
        "run this where the server runs (its DATA_DIR, default ./data), set DATA_DIR or DATABASE_URL to the server's store, or create a new store with `receipts init` (or add --init)",
      ]);
      expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
      // reading commands refuse alike: an empty list from the wrong folder would mislead too
      expect((await runCaptured(['keys', 'list'], { DATA_DIR: dataDir })).code).toBe(3);
    },
  );

  it.runIf(embeddedLeg())(
    'receipts init creates it and says where; then write commands name it',
    async () => {
      const dataDir = freshDataDir();
      const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      const init = await runCaptured(['init'], env);
      expect(init.code, init.err).toBe(0);
      expect(init.out.split('\n')[0]).toBe(`created the embedded store in ${dataDir}`);
      const again = await runCaptured(['init'], env);
      expect(again.out).toBe(
        `the embedded store in ${dataDir} exists already\nschema already up to date`,
      );

      const text = await runCaptured(
        ['keys', 'create', '--tenant', 'acme', '--name', 'n', '--scopes', 'read'],
        env,
      );
      expect(text.code, text.err).toBe(0);
      expect(text.out.split('\n').at(-1)).toBe(`store: embedded store in ${dataDir}`);
      // --json keeps stdout one JSON document: the store line goes to stderr
      const json = await runCaptured(
        ['keys', 'create', '--tenant', 'acme', '--name', 'j', '--scopes', 'read', '--json'],
        env,
      );
      expect(JSON.parse(json.out)).toMatchObject({ tenant: 'acme', name: 'j' });
      expect(json.err).toBe(`store: embedded store in ${dataDir}`);
      // a reading command prints what it read, no store line
      const list = await runCaptured(['keys', 'list'], env);
      expect(list.out).not.toContain('store:');
    },
    60_000,
  );

  it.runIf(embeddedLeg())(
    '--init on a write command creates the store and runs the command',
    async () => {
      const dataDir = freshDataDir();
      const res = await runCaptured(
        [
          'issuers',
          'add',
          '--tenant',
          'acme',
          '--id',
          'esc',
          '--public-key',
          'A'.repeat(43),
          '--init',
        ],
        { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      );
      expect(res.code, res.err).toBe(0);
      expect(res.out).toBe(
        `issuer esc may revoke receipts of tenant acme\nstore: embedded store in ${dataDir}`,
      );
    },
    60_000,
  );

  it('names the store every write command used (the fixture: embedded or PostgreSQL)', async () => {
    const res = await fixture.cli(
      'tenants',
      'policy',
      '--tenant',
      't',
      '--ci-profile',
      'ci-provenance-v2',
    );
    expect(res.code, res.err).toBe(0);
    const line = res.out.split('\n').at(-1) ?? '';
    if (isPostgres()) {
      expect(line).toMatch(/^store: PostgreSQL postgres:\/\/[^:@]*@/);
      expect(line).not.toMatch(/:[^/@]+@/); // never a password
    } else {
      expect(line).toBe(`store: embedded store in ${fixture.dataDir}`);
    }
  });

  it.runIf(embeddedLeg())(
    'through the running server, the line says so',
    async () => {
      const app = await buildApp({ config: testConfig(fixture.env, fixture.store), logger: false });
      try {
        const res = await fixture.cli('notaries', 'remove', '--tenant', 't', '--id', 'none');
        expect(res.code).toBe(1); // no such notary: nothing written, no store line
        const key = await fixture.cli(
          'keys',
          'create',
          '--tenant',
          't',
          '--name',
          'n',
          '--scopes',
          'read',
        );
        expect(key.code, key.err).toBe(0);
        expect(key.out.split('\n').at(-1)).toBe(
          `store: embedded store in ${fixture.dataDir}, through the running server`,
        );
      } finally {
        await app.close();
      }
    },
    60_000,
  );
});

import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/storage/database.js';
import { cliFixture } from '../helpers/cli.js';
import { ed25519Pem, isPostgres, testConfig } from '../helpers/context.js';

/** The CLI against an on-disk store it shares with the server (a temp DATA_DIR, or a PG schema). */
const { store, env, cli, cleanup } = cliFixture({ SIGNING_KEY: ed25519Pem() });
afterAll(cleanup);

describe('receipts keys', () => {
  it('creates a key shown once, stores only its hash, lists and revokes it', async () => {
    const created = await cli(
      'keys',
      'create',
      '--tenant',
      'acme',
      '--name',
      'ci',
      '--scopes',
      'verify,read',
      '--json',
    );
    expect(created.code, created.err).toBe(0);
    const { id, key } = JSON.parse(created.out) as { id: string; key: string };
    expect(key).toMatch(/^vrs_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);

    const db = await openDatabase(store);
    try {
      const rows = await db.knex('api_keys').select();
      expect(rows).toHaveLength(1);
      const serialized = JSON.stringify(rows);
      expect(serialized).not.toContain(key.slice('vrs_'.length + 32 + 1));
      expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await db.close();
    }

    // the key works against the server on the same store
    const config = testConfig(env, store);
    const app = await buildApp({ config, logger: false });
    try {
      const ok = await app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await app.close();
    }

    const listed = await cli('keys', 'list');
    expect(listed.out).toContain(id);
    expect(listed.out).toContain('active');
    expect(listed.out).not.toContain(key);

    expect((await cli('keys', 'revoke', id)).code).toBe(0);
    expect((await cli('keys', 'list')).out).toContain('revoked');
    expect((await cli('keys', 'revoke', id)).code).toBe(1);
  });

  it('rejects unknown scopes and missing flags with a clear message', async () => {
    const bad = await cli(
      'keys',
      'create',
      '--tenant',
      'a',
      '--name',
      'n',
      '--scopes',
      'verify,admin',
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('admin');
    const missing = await cli('keys', 'create', '--name', 'n', '--scopes', 'read');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--tenant');
    expect((await cli('nonsense')).code).toBe(2);
  });

  it.runIf(!isPostgres())(
    'while the server holds the embedded store, commands run through its admin channel',
    async () => {
      const config = testConfig(env, store);
      const app = await buildApp({ config, logger: false });
      try {
        const created = await cli(
          'keys',
          'create',
          '--tenant',
          'live',
          '--name',
          'no downtime',
          '--scopes',
          'read',
          '--json',
        );
        expect(created.code, created.err).toBe(0);
        const { id, key } = JSON.parse(created.out) as { id: string; key: string };
        const list = () => app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } });
        expect((await list()).statusCode).toBe(200);
        expect((await cli('keys', 'list')).out).toContain(id);
        expect((await cli('keys', 'revoke', id)).code).toBe(0);
        expect((await list()).statusCode).toBe(401); // at once: the server's own cache
        expect((await cli('keys', 'revoke', id)).code).toBe(1); // exit codes kept
        expect((await cli('migrate')).out).toContain('already up to date');
      } finally {
        await app.close();
      }
      expect((await cli('keys', 'list')).code).toBe(0);
    },
  );

  it.runIf(!isPostgres())(
    'says the store is locked when the holder has no admin channel to reach',
    async () => {
      const { acquireDataDirLock } = await import('../../src/storage/data-dir-lock.js');
      const lock = acquireDataDirLock(env.DATA_DIR ?? '');
      try {
        const res = await cli('keys', 'list');
        expect(res.code).toBe(3);
        expect(res.err).toMatch(/in use by process \d+/);
      } finally {
        lock.release();
      }
    },
  );
});

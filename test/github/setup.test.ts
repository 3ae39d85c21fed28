import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { StoreConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { closeStore, tempDir, testConfig } from '../helpers/context.js';
import { mergeEnvFile } from '../../src/github/manifest.js';
import { GITHUB_API, PUBLIC_URL } from './helpers.js';

/** Probot's first run: no credentials -> /probot registers the app from app.yml into .env. */
const envFile = path.join(tempDir(), '.env');
const lines: Record<string, unknown>[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    done();
  },
});
let app: FastifyInstance;
let db: Database;
let store: StoreConfig;
let token = '';

beforeAll(async () => {
  nock.disableNetConnect();
  const config = testConfig({ PUBLIC_URL, ENV_FILE: envFile, GH_ORG: 'acme' });
  store = config.store;
  db = await openDatabase(store);
  app = await buildApp({
    config,
    db,
    logger: { level: 'info', stream },
  });
  await app.ready();
  const setup = lines.find((l) => typeof l.setup === 'string')?.setup as string;
  token = new URL(setup).searchParams.get('setup') ?? '';
});
afterAll(async () => {
  await app.close();
  await closeStore(db, store);
  nock.enableNetConnect();
});
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

async function setupPage() {
  const res = await app.inject({ url: `/probot?setup=${token}` });
  expect(res.statusCode, res.body).toBe(200);
  const action = /action="([^"]+)"/.exec(res.body)?.[1]?.replaceAll('&#38;', '&') ?? '';
  const manifest = /name="manifest" value="([^"]+)"/
    .exec(res.body)?.[1]
    ?.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)));
  return { res, action, manifest: JSON.parse(manifest ?? '{}') as Record<string, unknown> };
}

describe('GitHub App setup (manifest flow)', () => {
  it('logs a one-time setup link; without its token /probot is 403', async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // where the credentials go, and the same path on localhost for before PUBLIC_URL resolves
    const logged = lines.find((l) => typeof l.setup === 'string');
    expect(logged?.msg).toContain(`credentials go to ${envFile}`);
    expect(logged?.beforeDnsWorks).toMatch(
      new RegExp(`^http://localhost:\\d+/probot\\?setup=${token}$`),
    );
    for (const url of ['/probot', '/probot?setup=nope']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden' });
    }
  });

  it('serves the manifest of app.yml with this deployment URLs, posted to GitHub', async () => {
    const { res, action, manifest } = await setupPage();
    expect(res.headers['content-security-policy']).toContain('form-action https://github.com');
    expect(action).toMatch(
      /^https:\/\/github\.com\/organizations\/acme\/settings\/apps\/new\?state=/,
    );
    expect(manifest).toMatchObject({
      name: 'Verification Receipts',
      url: PUBLIC_URL,
      hook_attributes: { url: `${PUBLIC_URL}/api/github/webhooks`, active: true },
      redirect_url: `${PUBLIC_URL}/probot/setup`,
      default_permissions: {
        checks: 'write',
        actions: 'read',
        deployments: 'write',
        contents: 'read',
        metadata: 'read',
      },
      default_events: ['workflow_run', 'check_run', 'deployment_protection_rule'],
    });
  });

  it('exchanges the code GitHub returns, writes .env (0600) and sends you to install', async () => {
    const { action } = await setupPage();
    const state = new URL(action).searchParams.get('state');
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n';
    nock(GITHUB_API).post('/app-manifests/c0de/conversions').reply(201, {
      id: 777,
      pem,
      webhook_secret: 'whsec',
      client_id: 'Iv1.abc',
      client_secret: 'cs',
      html_url: 'https://github.com/apps/verification-receipts',
    });
    const res = await app.inject({ url: `/probot/setup?code=c0de&state=${state}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      'https://github.com/apps/verification-receipts/installations/new',
    );
    const written = fs.readFileSync(envFile, 'utf8');
    expect(written).toContain('APP_ID=777\n');
    expect(written).toContain('WEBHOOK_SECRET=whsec\n');
    expect(written).toContain(`PRIVATE_KEY=${pem.replace(/\n/g, '\\n')}\n`);
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
    // the state is single-use
    const again = await app.inject({ url: `/probot/setup?code=c0de&state=${state}` });
    expect(again.statusCode).toBe(403);
  });

  it('when ENV_FILE cannot be written, the page shows the credentials to copy; no copy is left behind', async () => {
    const { action } = await setupPage();
    const state = new URL(action).searchParams.get('state');
    const before = fs.readFileSync(envFile);
    // a directory where the file should be: the rename fails, whoever the tests run as
    fs.rmSync(envFile);
    fs.mkdirSync(envFile);
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIC\n-----END RSA PRIVATE KEY-----\n';
    nock(GITHUB_API).post('/app-manifests/c0de2/conversions').reply(201, {
      id: 778,
      pem,
      webhook_secret: 'whsec2',
      client_id: 'Iv1.def',
      client_secret: 'cs2',
      html_url: 'https://github.com/apps/verification-receipts-2',
    });
    const logged = lines.length;
    try {
      const res = await app.inject({ url: `/probot/setup?code=c0de2&state=${state}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain(`could not write them to <code>${envFile}</code>`);
      expect(res.body).toContain('APP_ID=778\n');
      expect(res.body).toContain('WEBHOOK_SECRET=whsec2\n');
      expect(res.body).toContain(`PRIVATE_KEY=${pem.replace(/\n/g, '\\n')}`);
      expect(res.body).toContain(
        'href="https://github.com/apps/verification-receipts-2/installations/new"',
      );
      expect(fs.readdirSync(path.dirname(envFile)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const log = JSON.stringify(lines.slice(logged));
      expect(log).toContain('cannot be written');
      expect(log).not.toContain('MIIC');
      expect(log).not.toContain('whsec2');
    } finally {
      fs.rmdirSync(envFile);
      fs.writeFileSync(envFile, before, { mode: 0o600 });
    }
  });

  it('a write that fails at the rename leaves no temporary copy of the key', () => {
    const file = path.join(tempDir(), '.env');
    const failing = () => {
      throw Object.assign(new Error('read-only file system'), { code: 'EROFS' });
    };
    expect(() => mergeEnvFile(file, { PRIVATE_KEY: 'k' }, failing)).toThrow('read-only');
    expect(fs.readdirSync(path.dirname(file))).toEqual([]);
  });

  it('a code without a state this server issued is refused', async () => {
    const res = await app.inject({ url: '/probot/setup?code=c0de&state=forged' });
    expect(res.statusCode).toBe(403);
  });

  it('GitHub refusing the code is a 503 ErrorResponse, nothing written', async () => {
    const { action } = await setupPage();
    const state = new URL(action).searchParams.get('state');
    const before = fs.readFileSync(envFile, 'utf8');
    nock(GITHUB_API).post('/app-manifests/bad/conversions').reply(404, { message: 'Not Found' });
    const res = await app.inject({ url: `/probot/setup?code=bad&state=${state}` });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: 'dependency_unavailable' });
    expect(fs.readFileSync(envFile, 'utf8')).toBe(before);
  });

  it('keeps only the newest 32 setup states: the oldest page opened is then refused', async () => {
    const stateOf = async () => new URL((await setupPage()).action).searchParams.get('state');
    const oldest = await stateOf();
    for (let i = 0; i < 32; i++) await stateOf();
    const res = await app.inject({ url: `/probot/setup?code=c0de&state=${oldest}` });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden' });
  });
});

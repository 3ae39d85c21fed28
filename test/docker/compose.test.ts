import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestContext, listenLocally, tempDir, type TestContext } from '../helpers/context.js';

/**
 * compose.yaml: production with PostgreSQL in one command. What it says is checked here on any
 * machine (services, health checks, volumes, secrets from files, PUBLIC_URL required, and that
 * the service reads the variables it sets); `docker compose config` validates it where the
 * Docker Compose plugin is installed.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FILE = path.join(ROOT, 'compose.yaml');

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; interval: string; timeout: string; retries: number };
  restart?: string;
}
interface Compose {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
}

const compose = load(fs.readFileSync(FILE, 'utf8')) as Compose;
const receipts = compose.services.receipts as Service;
const db = compose.services.db as Service;

function composeCli(): boolean {
  return spawnSync('docker', ['compose', 'version'], { timeout: 20_000 }).status === 0;
}
const hasCompose = composeCli();

describe('compose.yaml', () => {
  it('runs the service on a healthy PostgreSQL, both with health checks and restarts', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['db', 'receipts']);
    expect(receipts.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    for (const service of [receipts, db]) {
      expect(service.healthcheck?.test.length).toBeGreaterThan(1);
      expect(service.restart).toBe('unless-stopped');
    }
    expect(db.image).toMatch(/^postgres:\d+-/); // a pinned major
    expect(db.volumes).toEqual(['db-data:/var/lib/postgresql/data']);
    expect(Object.keys(compose.volumes)).toEqual(['db-data', 'receipts-data']);
  });

  it('requires PUBLIC_URL and keeps every secret in a file, none in the environment', () => {
    expect(receipts.environment?.PUBLIC_URL).toMatch(/^\$\{PUBLIC_URL:\?.+\}$/);
    expect(receipts.environment).toMatchObject({
      DATABASE_URL_FILE: '/run/secrets/database_url',
      SIGNING_KEY_FILE: '/run/secrets/signing_key',
    });
    expect(db.environment).toMatchObject({ POSTGRES_PASSWORD_FILE: '/run/secrets/db_password' });
    const values = [receipts, db].flatMap((s) => Object.entries(s.environment ?? {}));
    for (const [name, value] of values) {
      expect(name, name).not.toMatch(/^(DATABASE_URL|POSTGRES_PASSWORD|SIGNING_KEY|PRIVATE_KEY)$/);
      expect(value, name).not.toMatch(/postgres:\/\/|BEGIN .*KEY/);
    }
    for (const secret of Object.values(compose.secrets)) {
      expect(secret.file).toMatch(/^\.\/secrets\//);
    }
    expect(fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8')).toMatch(/^\/secrets\/$/m);
  });

  it("keeps the GitHub App's credentials where the service user can write: its data volume", () => {
    expect(receipts.volumes).toEqual(['receipts-data:/data']);
    const envFile = receipts.environment?.ENV_FILE ?? '';
    expect(envFile).toMatch(/^\/data\/[^/]+$/);
    // the image makes /data its uid 1000's (the user it runs as), and a new named volume
    // takes the ownership of the image's folder
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/chown 1000:1000 \/data/);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(loadConfig({ ENV_FILE: envFile }).githubSetup.envFile).toBe(envFile);
  });

  it('the service reads the variables compose sets: DATABASE_URL_FILE names its store', () => {
    const file = path.join(tempDir('compose-'), 'database_url');
    fs.writeFileSync(file, 'postgres://receipts:s3cret@db:5432/receipts\n');
    const config = loadConfig({ DATABASE_URL_FILE: file });
    expect(config.store).toMatchObject({
      kind: 'postgres',
      url: 'postgres://receipts:s3cret@db:5432/receipts',
    });
    fs.writeFileSync(file, 'not a url');
    expect(() => loadConfig({ DATABASE_URL_FILE: file })).toThrow(/holds no postgres:\/\/ URL/);
    expect(() => loadConfig({ DATABASE_URL_FILE: `${file}.missing` })).toThrow(/cannot be read/);
  });

  describe('its health check of the service', () => {
    let ctx: TestContext;
    let port: string;
    beforeAll(async () => {
      ctx = await createTestContext();
      port = new URL(await listenLocally(ctx.app)).port;
    });
    afterAll(async () => ctx.close());

    it('passes on a ready service and fails when nothing answers', async () => {
      const [, , flag, script] = receipts.healthcheck?.test ?? [];
      expect(flag).toBe('-e');
      // asynchronous: the service answers from this very process
      const run = (p: string) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['-e', (script ?? '').replace(':3000/', `:${p}/`)]);
          child.on('exit', (code) => resolve(code));
        });
      expect(await run(port)).toBe(0);
      expect(await run('1')).toBe(1);
    });
  });

  it.runIf(hasCompose)(
    `docker compose config accepts it${hasCompose ? '' : ' (skipped: the Docker Compose plugin is not installed here)'}`,
    () => {
      const dir = tempDir('compose-config-');
      fs.copyFileSync(FILE, path.join(dir, 'compose.yaml'));
      fs.mkdirSync(path.join(dir, 'secrets'));
      for (const name of ['db_password', 'database_url', 'signing-key.pem']) {
        fs.writeFileSync(path.join(dir, 'secrets', name), 'x');
      }
      const out = execFileSync('docker', ['compose', 'config', '--format', 'json'], {
        cwd: dir,
        env: { ...process.env, PUBLIC_URL: 'https://receipts.example.com' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const resolved = JSON.parse(out) as Compose;
      expect(resolved.services.receipts?.environment?.PUBLIC_URL).toBe(
        'https://receipts.example.com',
      );
      const missing = spawnSync('docker', ['compose', 'config'], {
        cwd: dir,
        env: { ...process.env, PUBLIC_URL: '' },
        encoding: 'utf8',
      });
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain('set PUBLIC_URL');
    },
  );
});

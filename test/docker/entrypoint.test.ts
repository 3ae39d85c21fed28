import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fakeApp,
  hasFlock,
  removeTempDirs,
  runEntrypoint,
  runHealthcheck,
} from './entrypoint-runner.js';
import { defaultCmd, entrypoint, final, lastIn } from './image.js';
import type { Instruction } from './dockerfile-parser.js';

/**
 * The two commands the Dockerfile embeds - the entrypoint script and the HEALTHCHECK - run for
 * real, against a stand-in for the built /app.
 */

afterAll(removeTempDirs);

describe('HEALTHCHECK', () => {
  const healthcheck = () => lastIn(final, 'HEALTHCHECK') as Instruction;

  it('probes /readyz with Node itself, with interval, timeout and start period', () => {
    const check = healthcheck();
    expect(Object.keys(check.flags)).toEqual(
      expect.arrayContaining(['interval', 'timeout', 'start-period']),
    );
    expect(check.args).toMatch(/^CMD\s/);
    expect(check.args).toContain('/readyz');
    expect(check.args).not.toMatch(/\b(curl|wget)\b/); // not in slim images
  });

  it('passes while /readyz answers 200 and fails on 503 or when nothing listens', async () => {
    let status = 200;
    const paths: string[] = [];
    const server = http.createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await runHealthcheck(healthcheck().args, port)).toBe(0);
      status = 503;
      expect(await runHealthcheck(healthcheck().args, port)).toBe(1);
      expect(paths).toEqual(['/readyz', '/readyz']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await runHealthcheck(healthcheck().args, port)).toBe(1);
  });
});

describe.runIf(process.platform === 'linux' && hasFlock)('the entrypoint script', () => {
  it('runs migrate, then execs the server (which becomes the process the signals reach)', () => {
    const app = fakeApp();
    const result = runEntrypoint(app, defaultCmd());
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(app.logged()).toEqual([
      'migrate migrate lock=false',
      'migrate done',
      `server pid=${result.pid}`,
    ]);
    expect(fs.existsSync(path.join(app.dataDir, 'receipts.container.lock'))).toBe(true);
  });

  it('does not start the server when migrate fails, and exits with its code', () => {
    const app = fakeApp();
    const result = runEntrypoint(app, defaultCmd(), { FAKE_MIGRATE_EXIT: '3' });
    expect(result.status).toBe(3);
    expect(app.logged()).toEqual(['migrate migrate lock=false', 'migrate done']);
  });

  it('removes the stale store lock a killed pid-1 server left behind', () => {
    const app = fakeApp();
    fs.mkdirSync(app.dataDir);
    fs.writeFileSync(path.join(app.dataDir, 'receipts.lock'), '1');
    const result = runEntrypoint(app, defaultCmd());
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/removing the stale .*receipts\.lock/);
    expect(app.logged()[0]).toBe('migrate migrate lock=false');
  });

  it('refuses to start while another container holds the data directory', async () => {
    const app = fakeApp();
    const { script, name } = entrypoint();
    const holder = spawn(
      '/bin/sh',
      ['-c', script, name, 'node', '-e', 'process.stdout.write("up"); setInterval(() => {}, 1000)'],
      // its own process group, so that everything it started can be killed
      { cwd: app.dir, env: app.env(), stdio: ['ignore', 'pipe', 'inherit'], detached: true },
    );
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    try {
      await Promise.race([new Promise((resolve) => holder.stdout.once('data', resolve)), exited]);
      expect(holder.exitCode, 'the first container is up').toBeNull();
      fs.writeFileSync(path.join(app.dataDir, 'receipts.lock'), '1'); // the live server's
      const second = runEntrypoint(app, defaultCmd());
      expect(second.status).toBe(3);
      expect(second.stderr).toMatch(/in use by another container/);
      expect(app.logged()).toEqual([]);
      expect(fs.readFileSync(path.join(app.dataDir, 'receipts.lock'), 'utf8')).toBe('1');
    } finally {
      if (holder.exitCode === null) process.kill(-(holder.pid ?? 0), 'SIGKILL');
      await exited; // SIGKILL: the kernel releases the flock even then
    }
    expect(runEntrypoint(app, defaultCmd()).status).toBe(0);
  });

  it('stops after migrate, without starting the server, on SIGTERM during migrate', async () => {
    const app = fakeApp();
    const { script, name } = entrypoint();
    const child = spawn('/bin/sh', ['-c', script, name, ...defaultCmd()], {
      cwd: app.dir,
      env: app.env({ FAKE_MIGRATE_MS: '1500' }),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    for (let i = 0; i < 100 && app.logged().length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(app.logged()).toEqual(['migrate migrate lock=false', 'migrate done']);
  });

  it('runs any other command as given, without migrate', () => {
    const app = fakeApp();
    const result = runEntrypoint(app, [
      'node',
      '-e',
      `require('node:fs').appendFileSync(process.env.LOG, process.argv.slice(1).join('|'))`,
      'keys',
      'create',
      '--name',
      'two words',
    ]);
    expect(result.status).toBe(0);
    expect(app.logged()).toEqual(['keys|create|--name|two words']);
  });

  it('leaves DATA_DIR alone with PostgreSQL (DATABASE_URL set)', () => {
    const app = fakeApp();
    const result = runEntrypoint(app, defaultCmd(), { DATABASE_URL: 'postgres://db/receipts' });
    expect(result.status).toBe(0);
    expect(app.logged()).toHaveLength(3);
    expect(fs.existsSync(app.dataDir)).toBe(false);
  });

  it('leaves DATA_DIR alone with PostgreSQL named by a secret file (DATABASE_URL_FILE)', () => {
    const app = fakeApp();
    const result = runEntrypoint(app, defaultCmd(), {
      DATABASE_URL_FILE: '/run/secrets/database_url',
    });
    expect(result.status).toBe(0);
    expect(app.logged()).toHaveLength(3);
    expect(fs.existsSync(app.dataDir)).toBe(false);
  });

  it.runIf(process.getuid?.() !== 0)('explains an unwritable DATA_DIR', () => {
    const app = fakeApp();
    fs.mkdirSync(app.dataDir, { mode: 0o500 });
    const result = runEntrypoint(app, defaultCmd());
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/is not writable by uid/);
  });
});

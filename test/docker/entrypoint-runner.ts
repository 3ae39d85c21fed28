import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseJsonArray } from './dockerfile-parser.js';
import { entrypoint } from './image.js';

/** Runs the two commands the Dockerfile embeds, the entrypoint script and the HEALTHCHECK. */

const tempDirs: string[] = [];

export const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-docker-'));
  tempDirs.push(dir);
  return dir;
};

/** Removes every directory `tempDir()` made (for afterAll). */
export function removeTempDirs(): void {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
}

export const hasFlock =
  spawnSync('sh', ['-c', 'command -v flock'], { stdio: 'ignore' }).status === 0;

/**
 * A stand-in for /app: dist/cli/main.js and dist/server.js that only log what they were run
 * with (and the state of the store's lock file) to $LOG.
 */
export function fakeApp() {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'dist', 'cli'), { recursive: true });
  const logLine = (what: string) =>
    `require('node:fs').appendFileSync(process.env.LOG, ${what} + '\\n');`;
  fs.writeFileSync(
    path.join(dir, 'dist', 'cli', 'main.js'),
    [
      `const lock = require('node:fs').existsSync(process.env.DATA_DIR + '/receipts.lock');`,
      logLine(`'migrate ' + process.argv.slice(2).join(' ') + ' lock=' + lock`),
      `const done = () => { ${logLine(`'migrate done'`)} process.exit(Number(process.env.FAKE_MIGRATE_EXIT || 0)); };`,
      `setTimeout(done, Number(process.env.FAKE_MIGRATE_MS || 0));`,
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'dist', 'server.js'), logLine(`'server pid=' + process.pid`));
  const log = path.join(dir, 'log');
  const dataDir = path.join(dir, 'data');
  const env = (extra: Record<string, string> = {}) => ({
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    DATA_DIR: dataDir,
    LOG: log,
    ...extra,
  });
  const logged = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
  return { dir, dataDir, env, logged };
}

export type FakeApp = ReturnType<typeof fakeApp>;

/** Runs the ENTRYPOINT with `argv` as the CMD, to the end. */
export function runEntrypoint(
  app: FakeApp,
  argv: string[],
  env: Record<string, string> = {},
): SpawnSyncReturns<string> {
  const { script, name } = entrypoint();
  return spawnSync('/bin/sh', ['-c', script, name, ...argv], {
    cwd: app.dir,
    env: app.env(env),
    encoding: 'utf8',
    timeout: 20_000,
  });
}

/** Runs a HEALTHCHECK command (exec or shell form) with PORT set; resolves its exit code. */
export async function runHealthcheck(command: string, port: number): Promise<number | null> {
  const cmd = command.replace(/^CMD\s+/, '');
  const argv = parseJsonArray(cmd) ?? ['/bin/sh', '-c', cmd];
  if (argv[0] === 'node') argv[0] = process.execPath;
  const child = spawn(argv[0] ?? '', argv.slice(1), {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

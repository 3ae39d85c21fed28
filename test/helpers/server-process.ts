import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { StoreConfig } from '../../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/**
 * The server from source (`src/server.ts` through tsx) in a process of its own, on
 * 127.0.0.1:`port`, with `env` as its whole configuration (besides PATH and HOME).
 */
export function spawnServer(port: number, env: Record<string, string>): ServerProcess {
  let output = '';
  const child = spawn(
    process.execPath,
    ['--conditions=verification-receipts-source', '--import', 'tsx', 'src/server.ts'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<ServerProcess['exited'] extends Promise<infer T> ? T : never>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** The variables that point a spawned server at `store` (its DATA_DIR, or its PostgreSQL schema). */
export function storeEnv(store: StoreConfig): Record<string, string> {
  if (store.kind === 'postgres')
    return { DATABASE_URL: store.url, DATABASE_SCHEMA: store.schema ?? '' };
  return { DATA_DIR: store.dataDir ?? '' };
}

/** Waits until the server answers `/healthz` (or exits, or `timeoutMs` passes: then it throws). */
export async function waitUntilServing(server: ServerProcess, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`the server exited: ${server.output().slice(-2000)}`);
    const ok = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) })
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `the server did not serve within ${timeoutMs} ms: ${server.output().slice(-2000)}`,
  );
}

/** Stops a spawned server (SIGKILL if it is still running) and waits for it to exit. */
export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

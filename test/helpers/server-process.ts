import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

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

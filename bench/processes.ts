import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The processes of a benchmark run: the built service (`node dist/server.js`, as in
 * production) and the bare route each in their own process; autocannon is the third.
 */

export const ROOT = path.resolve(import.meta.dirname, '..');

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, path: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} not ready within 60 s`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * `node <args>` in its own process, listening on a fresh port, ready when `readyPath` is 200.
 * Its stdout (the service's request log) is dropped, or appended to `logFile`.
 */
async function startNode(
  args: string[],
  env: Record<string, string>,
  readyPath: string,
  logFile?: string,
) {
  const port = await freePort();
  const out = logFile === undefined ? undefined : fs.openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    args.map((a) => a.replace('{PORT}', String(port))),
    {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', out ?? 'ignore', 'inherit'],
    },
  );
  if (out !== undefined) fs.closeSync(out); // the child has its own copy
  const url = `http://127.0.0.1:${port}`;
  const server = { url, child, stop: stopper(child) };
  try {
    await waitReady(url, child, readyPath);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/** The built service with `env` (its configuration, as an operator would set it). */
export function startService(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  logFile?: string,
) {
  return startNode([...nodeArgs, 'dist/server.js'], env, '/readyz', logFile);
}

export function startBareRoute() {
  return startNode(['bench/bare-server.mjs', '{PORT}'], {}, '/healthz');
}

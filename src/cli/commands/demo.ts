import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DataDirLockedError } from '../../storage/data-dir-lock.js';
import { adminSocketPath, forwardToServer } from '../admin-channel.js';
import { withServices, type CliContext, type Command } from '../context.js';
import { createMaterial } from '../demo/material.js';
import { tellStory } from '../demo/story.js';

/**
 * `receipts demo`: the whole story against a real service, printing each step, its curl
 * equivalent and where the files are. It uses the server that runs (`--url`, default
 * http://127.0.0.1:$PORT); when none answers it starts one for the demo and stops it after.
 * On the embedded store with the server running, the command runs inside the server (admin
 * channel), so it works there too.
 */
export const demoCommand: Command = async (ctx) => {
  const dir = path.resolve(ctx.flags.string('dir') ?? path.join(ctx.config.dataDir, 'demo'));
  const screening = ctx.config.screeningListsDir !== undefined;
  const material = await withServices(ctx, (s) => createMaterial(s, dir), { loadScreening: false });
  const url = ctx.flags.string('url') ?? `http://127.0.0.1:${ctx.config.port}`;
  const inServer = ctx.services;
  if (inServer || (await answers(url))) {
    const seal = inServer
      ? async () => void (await inServer.anchoring.sealAll())
      : () => sealNow(ctx);
    await tellStory({ io: ctx, url, material, screening, seal });
    return;
  }
  ctx.out(`no server answers at ${url}: starting one for the demo (stopped afterwards)`);
  const server = await startServer(ctx);
  try {
    await tellStory({ io: ctx, url: server.url, material, screening, seal: () => sealNow(ctx) });
  } finally {
    await server.stop();
  }
  ctx.out('Start the service yourself with `npm start`; the demo data stays in the store.');
};

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** `receipts anchor run`, through the admin channel when a server holds the embedded store. */
async function sealNow(ctx: CliContext): Promise<void> {
  try {
    await withServices(ctx, (s) => s.anchoring.sealAll(), { loadScreening: false });
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    const quiet = { out: () => undefined, err: (line: string) => ctx.err(line) };
    const code = await forwardToServer(['anchor', 'run'], adminSocketPath(err.dataDir), quiet);
    if (code !== 0) {
      throw new Error(`anchor run through the server exited ${String(code)}`, { cause: err });
    }
  }
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The service in a child process, configured by the CLI's own environment. */
async function startServer(ctx: CliContext) {
  const here = import.meta.dirname;
  const built = path.resolve(here, '../../server.js');
  const entry = fs.existsSync(built) ? built : path.resolve(here, '../../server.ts');
  const port = await freePort();
  // from a source checkout (tsx, tests) the entry is TypeScript: load it through tsx, and the
  // verifier package from its sources too (its package.json condition), not from a stale build
  const loader = entry.endsWith('.ts')
    ? ['--conditions=verification-receipts-source', '--import', 'tsx']
    : [];
  const child = spawn(process.execPath, [...loader, entry], {
    env: { ...ctx.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (const deadline = Date.now() + 60_000; !(await answers(url));) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('the demo server did not start (see its output above)');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop };
}

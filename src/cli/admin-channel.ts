import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Services } from '../services.js';
import type { CliIo } from './context.js';

/**
 * The operator CLI while the server runs on the embedded store. PGlite is single-process, so
 * the server holds the data directory; it also listens on a Unix socket inside it,
 * `DATA_DIR/admin.sock` (mode 0600). A CLI that finds the directory locked sends its command
 * there and the server runs it with its own services, so keys, notaries and issuers change
 * without downtime. Whoever can connect can already read DATA_DIR (the database and the signing
 * key): the socket gives no power the file system does not. With PostgreSQL the CLI needs none
 * of this: it opens the store itself.
 *
 * Protocol, one command per connection: the client sends one line of JSON `{"argv": [...]}`;
 * the server answers lines `{"out": "..."}` / `{"err": "..."}` and ends with `{"code": N}`.
 */

export const ADMIN_SOCKET = 'admin.sock';
const MAX_REQUEST_BYTES = 64 * 1024;
const COMMAND_TIMEOUT_MS = 120_000;

export const adminSocketPath = (dataDir: string): string => path.join(dataDir, ADMIN_SOCKET);

export type CommandRunner = (argv: string[], io: CliIo, services: Services) => Promise<number>;

export interface AdminChannel {
  close(): Promise<void>;
}

/** Serves CLI commands on the socket; `run` is the CLI's own dispatcher. */
export async function startAdminChannel(
  socketPath: string,
  services: Services,
  run: CommandRunner,
): Promise<AdminChannel> {
  fs.rmSync(socketPath, { force: true }); // a dead server's socket: we hold the lock now
  const server = net.createServer((socket) => serve(socket, services, run));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

function serve(socket: net.Socket, services: Services, run: CommandRunner): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.setTimeout(COMMAND_TIMEOUT_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    const newline = buffered.indexOf('\n');
    if (newline < 0) {
      if (buffered.length > MAX_REQUEST_BYTES) socket.destroy();
      return;
    }
    socket.removeAllListeners('data');
    void answer(socket, buffered.slice(0, newline), services, run);
  });
}

async function answer(socket: net.Socket, line: string, services: Services, run: CommandRunner) {
  const send = (message: object) => socket.write(`${JSON.stringify(message)}\n`);
  let argv: unknown;
  try {
    argv = (JSON.parse(line) as { argv?: unknown }).argv;
  } catch {
    argv = undefined;
  }
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) {
    send({ err: 'error: malformed admin request' });
    socket.end(`${JSON.stringify({ code: 2 })}\n`);
    return;
  }
  const io: CliIo = { out: (text) => send({ out: text }), err: (text) => send({ err: text }) };
  const code = await run(argv, io, services).catch(() => 1);
  socket.end(`${JSON.stringify({ code })}\n`);
}

/** Flags whose value is a path: resolved here, since the server's working directory differs. */
const PATH_FLAGS = new Set(['--public-key-file', '--key-file', '--out']);

export function absolutePaths(argv: readonly string[], cwd: string): string[] {
  return argv.map((arg, i) => {
    const [flag, inline] = arg.split(/=(.*)/s);
    if (flag && inline !== undefined && PATH_FLAGS.has(flag)) {
      return `${flag}=${path.resolve(cwd, inline)}`;
    }
    const previous = argv[i - 1];
    return previous && PATH_FLAGS.has(previous) ? path.resolve(cwd, arg) : arg;
  });
}

/**
 * Runs `argv` in the server listening on `socketPath`: its exit code, or undefined when no
 * server answers there (then the caller reports the lock as before).
 */
export function forwardToServer(
  argv: readonly string[],
  socketPath: string,
  io: CliIo,
): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    let buffered = '';
    let code: number | undefined;
    let connected = false;
    socket.setEncoding('utf8');
    socket.setTimeout(COMMAND_TIMEOUT_MS + 5_000, () => socket.destroy());
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ argv: absolutePaths(argv, process.cwd()) })}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, nl)) as {
          out?: string;
          err?: string;
          code?: number;
        };
        buffered = buffered.slice(nl + 1);
        if (message.out !== undefined) io.out(message.out);
        if (message.err !== undefined) io.err(message.err);
        if (message.code !== undefined) code = message.code;
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!connected) return resolve(undefined);
      if (code === undefined)
        io.err('error: the server closed the admin channel without an answer');
      resolve(code ?? 1);
    });
  });
}

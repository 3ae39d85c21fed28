import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.js';
import { openDatabase } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, ed25519Pem, testConfig } from '../helpers/context.js';
import {
  spawnServer,
  stopServer,
  storeEnv,
  waitUntilServing,
  type ServerProcess,
} from '../helpers/server-process.js';
import { sleep } from '../helpers/until.js';
import { freePort } from '../helpers/witness.js';

/**
 * About 10 MiB of nested `[` sent to a route that takes a body and to routes that do not exist
 * must not stall the service: the server runs in a process of its own, and `/healthz`, asked
 * over fresh connections all the while, answers within 100 ms (the median; none waits a second).
 */

const config = testConfig();
let server: ServerProcess;
let port: number;
let key: string;

beforeAll(async () => {
  const db = await openDatabase(config.store);
  key = (
    await createRepositories(db).apiKeys.create({ tenant: 't', name: 'n', scopes: ['verify'] })
  ).token;
  await db.close();
  port = await freePort();
  server = spawnServer(port, {
    ...storeEnv(config.store),
    SIGNING_KEY: ed25519Pem(),
    ANCHOR_INTERVAL_MS: '0',
    LOG_LEVEL: 'warn',
  });
  await waitUntilServing(server, 120_000);
}, 150_000);

afterAll(async () => {
  await stopServer(server);
  await closeStore(await openDatabase(config.store), config.store);
});

interface Answer {
  status: number;
  body: string;
}

/** The status and body of a whole HTTP/1.1 answer in `text`; undefined while it is incomplete. */
function answerIn(text: string): Answer | undefined {
  const end = text.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
  if (end === -1 || length === undefined) return undefined;
  const body = text.slice(end + 4);
  if (Buffer.byteLength(body) < Number(length)) return undefined;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body };
}

/**
 * One request over a connection of its own, its body written in 64 KiB pieces until the server
 * answers (as curl does, a client stops sending once an early answer arrives), closed by the
 * client once the answer is whole; status 0 when the connection closed before that.
 */
function send(head: string, body: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    // one piece per turn of the event loop, so an answer is read as soon as it arrives
    const writeFrom = (at: number): void => {
      if (at >= body.length || received !== '' || socket.destroyed) return;
      const next = () => setImmediate(() => writeFrom(at + 65_536));
      if (socket.write(body.subarray(at, at + 65_536))) next();
      else socket.once('drain', next);
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (answerIn(received)) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(`${head}Content-Length: ${body.length}\r\n\r\n`);
      writeFrom(0);
    });
    socket.on('close', () => resolve(answerIn(received) ?? { status: 0, body: received }));
  });
}

/**
 * How long each `/healthz` took, asked every 20 ms over a new connection for `windowMs`, from a
 * process of its own (this one is busy sending the bodies).
 */
function healthLatencies(windowMs: number): Promise<number[]> {
  const script = `
    import { spawn } from 'node:child_process';
import net from 'node:net';
    const probe = () => new Promise((resolve, reject) => {
      const started = performance.now();
      const socket = net.connect(${port}, '127.0.0.1');
      let text = '';
      socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\\r\\nHost: t\\r\\nConnection: close\\r\\n\\r\\n'));
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', reject);
      socket.on('close', () => text.startsWith('HTTP/1.1 200 ') ? resolve(performance.now() - started) : reject(new Error(text)));
    });
    await probe();
    process.stdout.write('ready\\n');
    const end = performance.now() + ${windowMs};
    const latencies = [];
    while (performance.now() < end) {
      latencies.push(await probe());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    process.stdout.write(JSON.stringify(latencies) + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', () => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (last.startsWith('[')) resolve(JSON.parse(last) as number[]);
      else reject(new Error(`the prober failed: ${out}`));
    }),
  );
}

/** `body` to two routes that take one and to three routes that do not exist. */
function attack(body: Buffer): Promise<Answer[]> {
  const json = 'Host: t\r\nContent-Type: application/json\r\n';
  return Promise.all([
    send(`POST /api/v1/verify HTTP/1.1\r\nx-api-key: ${key}\r\n${json}`, body),
    send(`POST /api/v1/verifications/ci HTTP/1.1\r\nx-api-key: ${key}\r\n${json}`, body),
    send(`POST /no/such/route HTTP/1.1\r\n${json}`, body),
    send(`OPTIONS /api/v1/verify HTTP/1.1\r\n${json}`, body),
    send(`DELETE /api/v1/receipts HTTP/1.1\r\n${json}`, body),
  ]);
}

const DEPTH = 5 * 1024 * 1024;
const nested = Buffer.from('['.repeat(DEPTH) + ']'.repeat(DEPTH));

describe('a body of 10 MiB of nested brackets', () => {
  it('is refused without stalling /healthz, on a known route and on unknown ones', async () => {
    // first requests of each kind, so the measure is not of code paths run for the first time
    await attack(Buffer.from('['.repeat(100) + ']'.repeat(100)));
    const probing = healthLatencies(1_500);
    await sleep(300);
    const [verify, ci, ...unknown] = await attack(nested);
    const latencies = await probing;
    expect(latencies.length).toBeGreaterThan(0);
    // the median within 100 ms, and no probe held for the seconds a parse of the body takes
    // (3.5 s without the depth bound): other test files share these two cores, so a single
    // probe may wait its turn for the CPU without the service being stalled
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? Infinity;
    expect(median, latencies.join(', ')).toBeLessThan(100);
    expect(Math.max(...latencies), latencies.join(', ')).toBeLessThan(1_000);
    for (const known of [verify, ci]) {
      expect(known?.status, known?.body).toBe(400);
      expect(JSON.parse(known?.body ?? '')).toEqual({
        error: 'validation_failed',
        message: `request body nests arrays and objects more than ${LIMITS.jsonDepth} levels deep`,
        details: { limitDepth: LIMITS.jsonDepth },
      });
    }
    for (const answer of unknown) {
      expect(answer.status, answer.body).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'not_found' });
    }
  }, 60_000);

  it('within the depth limit, a body still reaches validation', async () => {
    const ok = Buffer.from(`{"bundleId":${'['.repeat(63)}${']'.repeat(63)}}`);
    const json = 'Host: t\r\nContent-Type: application/json\r\n';
    const answer = await send(`POST /api/v1/verify HTTP/1.1\r\nx-api-key: ${key}\r\n${json}`, ok);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: 'validation_failed',
      message: 'request validation failed',
    });
  });
});

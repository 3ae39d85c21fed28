import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, listenLocally, type TestContext } from '../helpers/context.js';
import { sleep } from '../helpers/until.js';

/**
 * Connection limits on a listening server (`inject` has no sockets): MAX_CONNECTIONS in all,
 * MAX_CONNECTIONS_PER_ADDRESS from one peer address, and KEEP_ALIVE_TIMEOUT_MS for an idle
 * kept-alive connection. Loopback answers on all of 127.0.0.0/8, so client sockets bound to
 * 127.0.0.2, 127.0.0.3... are other addresses to the server.
 */

let ctx: TestContext;
let port: number;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    MAX_CONNECTIONS: '20',
    MAX_CONNECTIONS_PER_ADDRESS: '5',
    KEEP_ALIVE_TIMEOUT_MS: '300',
  });
  port = Number(new URL(await listenLocally(ctx.app)).port);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await sleep(100);
});
afterAll(async () => ctx.close());

/** `count` idle connections from `localAddress`; resolves once each is open or closed, with how many are still open. */
async function idle(count: number, localAddress: string): Promise<number> {
  const opened = Array.from({ length: count }, () => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    sockets.push(socket);
    socket.on('error', () => undefined);
    return new Promise<net.Socket>((resolve) => {
      socket.once('connect', () => resolve(socket));
      socket.once('close', () => resolve(socket));
    });
  });
  await Promise.all(opened);
  // a connection over a limit is closed by the server as soon as it is accepted
  await sleep(300);
  return sockets.filter((s) => s.localAddress === localAddress && !s.destroyed).length;
}

function healthz(localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/healthz', localAddress, agent: false, timeout: 5_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
  });
}

describe('connection limits', () => {
  it('one address holding idle sockets gets 5 of them; another address is still served', async () => {
    expect(await idle(25, '127.0.0.1')).toBe(5);
    expect(await healthz('127.0.0.2')).toBe(200);
  });

  it('past MAX_CONNECTIONS in all, a new connection is closed at once', async () => {
    for (const address of ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6']) {
      expect(await idle(5, address)).toBe(5);
    }
    expect(await idle(1, '127.0.0.7')).toBe(0);
    for (const socket of sockets.splice(0)) socket.destroy();
    await sleep(200);
    expect(await healthz('127.0.0.7')).toBe(200);
  });

  it('an idle kept-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.8' });
    sockets.push(socket);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.write('GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n');
    const closed = await new Promise<number>((resolve) => {
      const started = Date.now();
      socket.once('close', () => resolve(Date.now() - started));
      setTimeout(() => resolve(Infinity), 5_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/keep-alive/i);
    expect(closed).toBeLessThan(3_000);
  });
});

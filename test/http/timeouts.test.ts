import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

/**
 * A client that sends its request slowly (one byte now and then) or not at all
 * cannot hold a connection: REQUEST_TIMEOUT_MS bounds the whole request, CONNECTION_TIMEOUT_MS an
 * idle socket. Measured on a listening server, since `inject` has no sockets.
 */

let ctx: TestContext;
let port: number;

beforeAll(async () => {
  ctx = await createTestContext({ REQUEST_TIMEOUT_MS: '1000', CONNECTION_TIMEOUT_MS: '1500' });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => ctx.close());

interface Outcome {
  /** What the server wrote before closing. */
  response: string;
  /** Bytes of the request the client managed to send. */
  sent: number;
}

/** Send `head`, then one byte of `body` every `intervalMs`, until the server closes. */
function trickle(head: string, body: string, intervalMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < body.length && socket.writable) socket.write(body.charAt(sent++));
    }, intervalMs);
    socket.on('connect', () => socket.write(head));
    socket.on('data', (chunk) => (response += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ response, sent });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    }, 10_000).unref();
  });
}

function jsonBody(response: string): unknown {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

describe('request and connection timeouts', () => {
  it('a body trickled one byte at a time gets a 408 ErrorResponse and the socket closes', async () => {
    const key = await ctx.apiKey(['verify']);
    const body = JSON.stringify({ bundleId: 'x'.repeat(200) });
    const head =
      'POST /api/v1/verify HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
      `x-api-key: ${key}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcome = await trickle(head, body, 100);
    expect(outcome.sent).toBeLessThan(body.length);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(jsonBody(outcome.response)).toEqual({
      error: 'validation_failed',
      message: 'the request was not received within 1000 ms',
    });
  });

  it('headers that never end get the same answer (webhook route included)', async () => {
    const head = 'POST /api/github/webhooks HTTP/1.1\r\nHost: test\r\n';
    const outcome = await trickle(head, 'x-slow: ' + 'a'.repeat(100), 100);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a connection that sends nothing is closed', async () => {
    const outcome = await trickle('', '', 1_000);
    expect(outcome.sent).toBe(0);
  });

  it('a normal request on the same server is unaffected', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});

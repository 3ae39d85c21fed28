import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCARD_MARGIN_BYTES } from '../../src/http/plugins/body-reader.js';
import { createTestContext, listenLocally, type TestContext } from '../helpers/context.js';

/**
 * A body nobody reads is dropped after its answer only as far as the route's body limit and a
 * margin: a client that keeps sending to an unknown route is cut off there, however much it
 * declared, instead of being read until the request timeout.
 */
const BODY_LIMIT = 64 * 1024;
let ctx: TestContext;
let port: number;

beforeAll(async () => {
  ctx = await createTestContext({ BODY_LIMIT_BYTES: String(BODY_LIMIT) });
  port = Number(new URL(await listenLocally(ctx.app)).port);
});
afterAll(async () => ctx.close());

/** Sends up to `total` bytes after the headers; how many it wrote before the server closed. */
function sendUntilClosed(total: number): Promise<{ written: number; answer: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    let answer = '';
    const pump = (): void => {
      while (!socket.destroyed && written < total) {
        written += piece.length;
        if (!socket.write(piece)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('connect', () => {
      socket.write(
        `POST /no/such/route HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
      );
      pump();
    });
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ written, answer }));
  });
}

describe('a body sent to an unknown route', () => {
  it('is answered 404, then cut off past the body limit and the margin', async () => {
    const total = 256 * 1024 * 1024;
    const { written, answer } = await sendUntilClosed(total);
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    // the kernel's socket buffers hold a few MiB beyond what the server read
    expect(written).toBeGreaterThan(BODY_LIMIT);
    expect(written).toBeLessThan(BODY_LIMIT + DISCARD_MARGIN_BYTES + 32 * 1024 * 1024);
  }, 60_000);
});

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real HTTP receiver of webhooks on 127.0.0.1: it records every request it reads (headers and
 * raw body) and answers as its current mode says: `ok` 200, `error` 500, `gone` 410, `redirect`
 * 302 to elsewhere, `hang` never answers (the sender times out), `drop` resets the connection,
 * `limited` 429 and `unavailable` 503 (these and `error` with `retryAfter` as their Retry-After,
 * when set). `flood` answers 500 with a body that never ends; `trickle` answers 500 with a body
 * of a byte every 50 ms that never ends. `down()` closes the port (connections are refused) until
 * `up()` listens on it again.
 */
export type ReceiverMode =
  | 'ok'
  | 'error'
  | 'gone'
  | 'redirect'
  | 'hang'
  | 'drop'
  | 'flood'
  | 'trickle'
  | 'limited'
  | 'unavailable';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered (or did). */
  answered: ReceiverMode;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Requests read in full, answered or not yet. */
  arrived: number;
  mode: ReceiverMode;
  /** How long the receiver takes before it answers. */
  delayMs: number;
  /** The Retry-After header of `limited` and `unavailable` answers. */
  retryAfter: string | undefined;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    arrived: 0,
    mode: 'ok',
    delayMs: 0,
    retryAfter: undefined,
    down: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    up: () =>
      new Promise<void>((resolve) => server.listen(receiver.port, '127.0.0.1', () => resolve())),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.arrived++;
      setTimeout(answer, receiver.delayMs);
    });
    const answer = () => {
      const mode = receiver.mode;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = String(v);
      receiver.received.push({
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered: mode,
      });
      if (mode === 'ok') res.writeHead(200).end('ok');
      else if (mode === 'error')
        res
          .writeHead(500, receiver.retryAfter ? { 'retry-after': receiver.retryAfter } : {})
          .end('receiver broke');
      else if (mode === 'gone') res.writeHead(410).end('gone');
      else if (mode === 'redirect')
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      else if (mode === 'drop') req.socket.destroy();
      else if (mode === 'limited' || mode === 'unavailable') {
        const retryAfter = receiver.retryAfter;
        res
          .writeHead(
            mode === 'limited' ? 429 : 503,
            retryAfter ? { 'retry-after': retryAfter } : {},
          )
          .end('come back later');
      } else if (mode === 'trickle') {
        res.writeHead(500);
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('x')), 50);
        res.on('close', () => clearInterval(drip));
      } else if (mode === 'flood') {
        res.writeHead(500);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      }
      // hang: no answer at all
    };
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

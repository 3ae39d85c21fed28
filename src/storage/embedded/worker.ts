/**
 * The embedded store's own thread: one PGlite, driven by messages from `ThreadedPGlite` (see
 * threaded-pglite.ts). Requests are answered in the order PGlite completes them; notifications
 * on a channel listened to are posted as they come, after the commit that sent them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { ErrorCopy, Request, Response } from './messages.js';

const port = parentPort;
if (!port) throw new Error('the embedded store worker runs as a worker thread');
const { dataDir } = workerData as { dataDir: string | undefined };
const db = new PGlite(dataDir);

port.on('message', (request: Request) => {
  void answer(request).then((response) => port.postMessage(response));
});

async function answer(request: Request): Promise<Response> {
  try {
    return { id: request.id, result: await run(request) };
  } catch (err) {
    return { id: request.id, error: describe(err) };
  }
}

async function run(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'ready':
      return db.waitReady;
    case 'query':
      return db.query(request.sql, request.params);
    case 'listen':
      await db.listen(request.channel, (payload) =>
        port?.postMessage({ channel: request.channel, payload }),
      );
      return undefined;
    case 'close':
      return db.close();
  }
}

/** The error's message and own fields (PostgreSQL's code, detail, constraint, ...). */
function describe(err: unknown): ErrorCopy {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue;
    fields[key] = value;
  }
  return { message: err.message, name: err.name, fields };
}

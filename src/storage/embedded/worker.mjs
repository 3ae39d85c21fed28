// @ts-check
/* global URL, WebAssembly -- Node built-ins */
/**
 * The embedded store's own thread: one PGlite, driven by messages from `ThreadedPGlite` (see
 * threaded-pglite.ts). Requests are answered in the order PGlite completes them; notifications
 * on a channel listened to are posted as they come, after the commit that sent them.
 *
 * JavaScript (checked by tsc from its JSDoc) rather than TypeScript: a thread is a fresh isolate
 * with no TypeScript loader, and registering one in each thread run from source cost about 0.4 s
 * of CPU per store opened. The same file runs from src/ and dist/.
 *
 * PGlite's WebAssembly is compiled by the first thread of a process and posted back as a
 * `WebAssembly.Module`; the threads after it instantiate that module (`workerData.wasmModule`),
 * sharing its machine code, instead of compiling and warming up nine megabytes of their own.
 *
 * @import { ErrorCopy, Request, Response, StoreThreadData } from './messages.js'
 */
import fs from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('the embedded store worker runs as a worker thread');
const { dataDir, wasmModule } = /** @type {StoreThreadData} */ (workerData);
const db = openStore();
// a failed start is answered to the 'ready' request, which may come after it: not unhandled
db.catch(() => undefined);

/** PGlite on `dataDir` (in memory without one), on the process's compiled module. */
async function openStore() {
  const pgliteWasmModule = wasmModule ?? (await compile());
  const pglite = new PGlite(dataDir, { pgliteWasmModule });
  await pglite.waitReady;
  return pglite;
}

/** PGlite's module, compiled here from the file PGlite itself loads, and handed to the parent. */
async function compile() {
  const file = new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'));
  const compiled = await WebAssembly.compile(await fs.readFile(file));
  port?.postMessage({ wasmModule: compiled });
  return compiled;
}

port.on('message', (/** @type {Request} */ request) => {
  void answer(request).then((response) => port.postMessage(response));
});

/** @returns {Promise<Response>} */
async function answer(/** @type {Request} */ request) {
  try {
    return { id: request.id, result: await run(request) };
  } catch (err) {
    return { id: request.id, error: describe(err) };
  }
}

/** @returns {Promise<unknown>} */
async function run(/** @type {Request} */ request) {
  switch (request.op) {
    case 'ready':
      await db;
      return undefined;
    case 'query':
      return (await db).query(request.sql, request.params);
    case 'listen':
      await (
        await db
      ).listen(request.channel, (payload) =>
        port?.postMessage({ channel: request.channel, payload }),
      );
      return undefined;
    case 'close': {
      // a store that never opened has nothing to close (its failure was the 'ready' answer)
      const pglite = await db.catch(() => undefined);
      return pglite?.close();
    }
  }
}

/**
 * The error's message and own fields (PostgreSQL's code, detail, constraint, ...).
 * @returns {ErrorCopy}
 */
function describe(/** @type {unknown} */ err) {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue;
    fields[key] = value;
  }
  return { message: err.message, name: err.name, fields };
}

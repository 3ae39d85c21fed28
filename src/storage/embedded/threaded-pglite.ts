import { Worker } from 'node:worker_threads';
import type { Compiled, Notification, Request, Response, StoreThreadData } from './messages.js';

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };
/** A request before it is numbered (each member of the union without its id). */
type Unnumbered<R> = R extends unknown ? Omit<R, 'id'> : never;
type Call = Unnumbered<Request>;

/**
 * The thread's code, JavaScript beside this file in src/ and in dist/ (see worker.mjs), imported
 * by a one-line script: a thread started on the file itself would refuse the `--input-type` a
 * process run with `node --input-type=module -e` passes on to its threads.
 */
const workerScript = `import(${JSON.stringify(new URL('./worker.mjs', import.meta.url).href)});`;

/**
 * PGlite's WebAssembly as the first store thread of this process compiled it: each thread after
 * it instantiates this module (its machine code shared, not compiled again), which more than
 * halves the CPU of opening a store. Kept for the process's life, as the one store of the
 * service or a CLI command is.
 */
let compiledPGlite: WebAssembly.Module | undefined;

/**
 * PGlite on a thread of its own, behind the part of PGlite's interface knex-pglite and the
 * change feed use (`waitReady`, `query`, `listen`, `close`): the embedded store's statements run
 * beside the service's thread instead of on it. Results and errors cross as copies (rows with
 * their parsed values; an error with its message and PostgreSQL fields such as `code`).
 */
export class ThreadedPGlite {
  readonly waitReady: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(dataDir: string | undefined) {
    const workerData: StoreThreadData = { dataDir, wasmModule: compiledPGlite };
    this.worker = new Worker(workerScript, { eval: true, workerData });
    this.worker.on('message', (message: Response | Notification | Compiled) =>
      this.received(message),
    );
    const stopped = (why: string) =>
      this.fail(new Error(`the embedded store thread stopped${why}`));
    this.worker.on('error', (err) => stopped(`: ${err.message}`));
    this.worker.on('exit', () => stopped(''));
    // like PGlite in process, an idle store does not keep the process alive; a call does
    this.worker.unref();
    this.waitReady = this.call({ op: 'ready' }).then(() => undefined);
  }

  query(sql: string, params?: unknown[]): Promise<unknown> {
    return this.call({ op: 'query', sql, params });
  }

  async listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(channel, listeners);
      await this.call({ op: 'listen', channel });
    }
    listeners.add(fn);
    return async () => {
      listeners.delete(fn);
    };
  }

  async close(): Promise<void> {
    if (this.failure) return;
    await this.call({ op: 'close' });
    this.fail(new Error('the embedded store is closed'));
    await this.worker.terminate();
  }

  private call(call: Call): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...call, id });
    });
  }

  private received(message: Response | Notification | Compiled): void {
    if ('wasmModule' in message) {
      compiledPGlite ??= message.wasmModule;
      return;
    }
    if ('channel' in message) {
      for (const fn of this.listeners.get(message.channel) ?? []) fn(message.payload);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker.unref();
    if (message.error) {
      const { message: text, name, fields } = message.error;
      const err = Object.assign(new Error(text), fields);
      if (name) err.name = name;
      pending.reject(err);
    } else pending.resolve(message.result);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const { reject } of this.pending.values()) reject(this.failure);
    this.pending.clear();
  }
}

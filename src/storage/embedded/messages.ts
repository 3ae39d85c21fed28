/** What the service's thread and the embedded store's thread say to each other. */
export type Request = { id: number } & (
  | { op: 'ready' }
  | { op: 'query'; sql: string; params: unknown[] | undefined }
  | { op: 'listen'; channel: string }
  | { op: 'close' }
);

/** An error as it crosses: its message, name and own fields (code, detail, constraint, ...). */
export interface ErrorCopy {
  message: string;
  name?: string;
  fields: Record<string, unknown>;
}

export type Response =
  | { id: number; result: unknown; error?: undefined }
  | { id: number; result?: undefined; error: ErrorCopy };

/** What a store's thread is started with: its cluster's folder, and the process's compiled PGlite. */
export interface StoreThreadData {
  dataDir: string | undefined;
  wasmModule: WebAssembly.Module | undefined;
}

/** PGlite's module, as the first thread of a process compiled it (for the threads after it). */
export interface Compiled {
  wasmModule: WebAssembly.Module;
}

/** A NOTIFY on a channel listened to. */
export interface Notification {
  channel: string;
  payload: string;
}

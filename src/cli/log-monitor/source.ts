import { setTimeout as sleep } from 'node:timers/promises';
import { tilePath, TILE_WIDTH, type TileRef } from '../../anchoring/tile-path.js';
import { BodyTooLargeError, readBounded } from '../../bounded-body.js';
import { fetchFailure } from '../net-error.js';

/** Where a monitor reads a tlog-tiles log from: the checkpoint and tiles below a URL prefix. */
export interface LogSource {
  checkpoint(): Promise<string>;
  /** The log's note verifier key, as the log itself serves it (not a pinned key). */
  vkey(): Promise<string>;
  tile(ref: TileRef): Promise<Uint8Array>;
}

/** A full hash tile is 8 KiB; an entry bundle at most 256 entries of 2 + 65535 bytes. */
const MAX_TILE_BYTES = TILE_WIDTH * (2 + 0xffff);
const MAX_CHECKPOINT_BYTES = 1024 * 1024;
const MAX_VKEY_BYTES = 4096;
const ATTEMPTS = 6;
const FETCH_TIMEOUT_MS = 30_000;

export class LogFetchError extends Error {
  override name = 'LogFetchError';
}

/**
 * Reads a log over HTTP(S) at `prefix` (e.g. `https://receipts.example/log`). Each answer is
 * bounded in size and time; 429 and 503 are retried after their Retry-After (at most 30 s) or
 * an exponential backoff, up to six attempts. `apiKey` is sent as x-api-key when the log is
 * not public (LOG_PUBLIC=false). A failure names the URL and the cause (refused, DNS, TLS,
 * timeout, HTTP status).
 */
export function httpLogSource(
  prefix: string,
  apiKey?: string,
  timeoutMs = FETCH_TIMEOUT_MS,
): LogSource {
  const base = prefix.replace(/\/+$/, '');
  const headers: Record<string, string> = apiKey ? { 'x-api-key': apiKey } : {};
  async function get(path: string, limit: number): Promise<Uint8Array> {
    const url = `${base}/${path}`;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, {
        headers,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      }).catch((err: unknown) => {
        throw new LogFetchError(`cannot read ${url}: ${fetchFailure(err, timeoutMs)}`);
      });
      if ((res.status === 429 || res.status === 503) && attempt < ATTEMPTS) {
        await res.body?.cancel();
        const after = Number(res.headers.get('retry-after'));
        await sleep(
          Number.isFinite(after) && after > 0 ? Math.min(after, 30) * 1000 : 250 * 2 ** attempt,
        );
        continue;
      }
      const bytes = await readBounded(res, limit).catch((err: unknown) => {
        throw new LogFetchError(
          err instanceof BodyTooLargeError
            ? `${url}: ${err.message}`
            : `cannot read ${url}: ${fetchFailure(err, timeoutMs)}`,
        );
      });
      if (!res.ok) {
        const text = new TextDecoder().decode(bytes.subarray(0, 200));
        throw new LogFetchError(`${url} answered HTTP ${res.status}: ${text}`);
      }
      return bytes;
    }
  }
  return {
    checkpoint: async () => new TextDecoder().decode(await get('checkpoint', MAX_CHECKPOINT_BYTES)),
    vkey: async () => new TextDecoder().decode(await get('vkey', MAX_VKEY_BYTES)).trim(),
    tile: (ref) => get(tilePath(ref), MAX_TILE_BYTES),
  };
}

import { parseJsonBounded } from '../json.js';

/**
 * Bounded fetches for the verifier: https only (http only to loopback), no redirects, a timeout,
 * and at most MAX_FETCH_BYTES read from the body, stopping as soon as the limit is passed.
 */
export const MAX_FETCH_BYTES = 256 * 1024;
export const FETCH_TIMEOUT_MS = 10_000;

export class FetchError extends Error {
  override name = 'FetchError';
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The URL if the verifier may fetch it: https anywhere, http only to this machine. */
export function fetchableUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchError(`${text} is not a URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return url;
  throw new FetchError(`${text}: only https URLs are fetched (http only to localhost)`);
}

function causeOf(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${FETCH_TIMEOUT_MS / 1000} s`;
  const code = e.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found (DNS)';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS error (${code})`;
  return e.cause?.message ?? code ?? e.message ?? 'unknown error';
}

async function readCapped(res: Response, url: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_FETCH_BYTES)
    throw new FetchError(`${url}: answer larger than ${MAX_FETCH_BYTES} bytes`);
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
    if (done || !value) break;
    size += value.length;
    if (size > MAX_FETCH_BYTES) {
      await reader?.cancel();
      throw new FetchError(`${url}: answer larger than ${MAX_FETCH_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.length) - c.length);
  return out;
}

/** GETs `text` and returns the body; a non-2xx answer is an error naming the status. */
export async function fetchBounded(text: string, accept = 'application/json'): Promise<string> {
  const url = fetchableUrl(text);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept },
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    throw new FetchError(`${url.href}: ${causeOf(err)}`);
  }
  let body: Uint8Array;
  try {
    body = await readCapped(res, url.href);
  } catch (err) {
    throw err instanceof FetchError ? err : new FetchError(`${url.href}: ${causeOf(err)}`);
  }
  const textBody = new TextDecoder().decode(body);
  if (!res.ok) throw new FetchError(`${url.href}: HTTP ${res.status} ${textBody.slice(0, 200)}`);
  return textBody;
}

export async function fetchJson(url: string): Promise<unknown> {
  const read = parseJsonBounded(await fetchBounded(url));
  if (!read.ok) {
    const why = read.reason === 'not JSON' ? 'is not JSON' : read.reason;
    throw new FetchError(`${url}: the answer ${why}`);
  }
  return read.value;
}

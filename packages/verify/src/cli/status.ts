import type { StatusInput } from '../status-source.js';
import { fetchJson, MAX_FETCH_BYTES } from './fetch.js';
import { readFileBounded } from './files.js';
import { Usage, type Options } from './options.js';

/**
 * The status statement the command line gives the verifier: fetched from the service
 * (--online), read from a saved copy (--status FILE), or none (the bundle's own, if any, is then
 * checked). Either is verified, never believed: a pinned key, this receipt, recent enough.
 */

/** A saved status document: a JSON object read from a file at most as large as a fetch. */
function savedStatus(file: string): StatusInput {
  const text = readFileBounded(file, MAX_FETCH_BYTES, 'a status document').toString('utf8');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Usage(`--status ${file}: not JSON (save the answer of GET /status/{receiptHash})`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new Usage(`--status ${file}: not a status document (a JSON object)`);
  return { document, source: `supplied with --status ${file}` };
}

/** GET <online>/status/{receiptHash}: the document, or why it could not be fetched. */
export async function fetchStatus(o: Options, hash: string, size: string): Promise<StatusInput> {
  try {
    const url = `${o.online}/status/${encodeURIComponent(hash)}${size}`;
    return { document: await fetchJson(url), source: `fetched from ${o.online}` };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** The status to check for a receipt of `hash` whose bundle's checkpoint has `treeSize`. */
export async function statusOf(
  o: Options,
  hash: string | undefined,
  treeSize?: unknown,
): Promise<StatusInput | undefined> {
  if (o.status) return savedStatus(o.status);
  if (!o.online || !hash) return undefined;
  const size = typeof treeSize === 'number' ? `?treeSize=${treeSize}` : '';
  return fetchStatus(o, hash, size);
}

/* global fetch, AbortSignal -- Node >= 20 built-ins */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ActionError } from './errors.mjs';

/**
 * The artifact digest the receipt records (`subject-digest`, or the SHA-256 of `subject-path`),
 * as `sha256:<hex>`; undefined when neither input is set.
 *
 * @param {Record<string, string | undefined>} env
 * @returns {Promise<string | undefined>}
 */
export async function subjectDigest(env) {
  const digest = env.INPUT_SUBJECT_DIGEST?.trim();
  const file = env.INPUT_SUBJECT_PATH?.trim();
  if (digest && file) throw new ActionError('give subject-digest or subject-path, not both');
  if (digest) {
    const hex = digest.replace(/^sha256:/, '').toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hex)) {
      throw new ActionError('subject-digest must be sha256:<64 hex digits> (or the 64 hex digits)');
    }
    return `sha256:${hex}`;
  }
  if (!file) return undefined;
  const hash = createHash('sha256');
  try {
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk);
  } catch {
    throw new ActionError(`subject-path ${file} cannot be read`);
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * GET `url` with the API key and write the JSON answer to `file`; the file name, or undefined
 * (with the reason) when the service refuses (e.g. a key without the read scope).
 *
 * @param {string} url
 * @param {string} apiKey
 * @param {string} file
 * @param {number} timeoutMs
 * @returns {Promise<{ file: string } | { problem: string }>}
 */
export async function saveJson(url, apiKey, file, timeoutMs) {
  try {
    const res = await fetch(url, {
      headers: { 'x-api-key': apiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      const hint = res.status === 403 ? ' (the API key needs the read scope)' : '';
      return { problem: `HTTP ${res.status}${hint}` };
    }
    JSON.parse(text);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, 'utf8');
    return { file };
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
}

import { concat, equalBytes, fromBase64, hex, utf8 } from '../encoding.js';
import { ed25519Verify, sha256 } from '../primitives.js';
import type { PinnedWitness } from '../trust.js';

/**
 * C2SP tlog-cosignature (https://c2sp.org/tlog-cosignature), Ed25519 `cosignature/v1` only: a
 * witness's signature line on a checkpoint note whose blob is key ID (4) || timestamp (u64
 * big-endian) || signature (64) over `cosignature/v1\ntime <t>\n` followed by the checkpoint
 * text. The key ID is SHA-256(name || 0x0A || 0x04 || key)[:4].
 */
const COSIGNATURE = 0x04;
const LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/]+={0,2})$/u;

export const cosignerKeyId = (name: string, publicKey: Uint8Array): Uint8Array =>
  sha256(concat(utf8(name), Uint8Array.of(0x0a, COSIGNATURE), publicKey)).subarray(0, 4);

/** A cosigner vkey `<name>+<hex key ID>+<base64(0x04 || key)>`, its key ID checked. */
export function parseCosignerKey(vkey: string): PinnedWitness | undefined {
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first <= 0 || second < 0) return undefined;
  const name = vkey.slice(0, first);
  const idHex = vkey.slice(first + 1, second);
  const raw = fromBase64(vkey.slice(second + 1));
  if (!/^[^\s+]+$/u.test(name) || !/^[0-9a-f]{8}$/.test(idHex)) return undefined;
  if (raw?.length !== 33 || raw[0] !== COSIGNATURE) return undefined;
  const publicKey = raw.subarray(1);
  const keyId = cosignerKeyId(name, publicKey);
  return hex(keyId) === idHex ? { name, keyId, publicKey } : undefined;
}

function timestampOf(bytes: Uint8Array): bigint {
  let t = 0n;
  for (const b of bytes) t = (t << 8n) | BigInt(b);
  return t;
}

/**
 * Which pinned witnesses validly cosigned the checkpoint `text` in `note`, and which carry a
 * line under their name and key ID that does not verify.
 */
export function countCosignatures(
  note: string,
  text: string,
  witnesses: readonly PinnedWitness[],
): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  const lines = note.slice(text.length + 1, -1).split('\n');
  for (const line of lines.slice(0, 100)) {
    const m = LINE.exec(line);
    const blob = m ? fromBase64(m[2] ?? '') : undefined;
    if (!m || blob?.length !== 4 + 8 + 64) continue;
    const witness = witnesses.find(
      (w) => w.name === m[1] && equalBytes(w.keyId, blob.subarray(0, 4)),
    );
    if (!witness) continue;
    const time = timestampOf(blob.subarray(4, 12));
    const message = utf8(`cosignature/v1\ntime ${time}\n${text}`);
    if (ed25519Verify(blob.subarray(12), message, witness.publicKey)) valid.add(witness.name);
    else invalid.add(witness.name);
  }
  return { valid: [...valid].filter((n) => !invalid.has(n)), invalid: [...invalid] };
}

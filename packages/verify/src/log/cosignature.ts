import { concat, equalBytes, fromBase64, hex, utf8 } from '../encoding.js';
import {
  ML_DSA_44_PUBLIC_KEY_SIZE,
  ML_DSA_44_SIGNATURE_SIZE,
  ed25519Verify,
  mlDsa44Verify,
  sha256,
} from '../primitives.js';
import type { CosignatureType, PinnedWitness } from '../trust.js';

/**
 * C2SP tlog-cosignature (https://c2sp.org/tlog-cosignature): a witness's signature line on a
 * checkpoint note whose blob is key ID (4) || timestamp (u64 big-endian) || signature.
 *
 * - Ed25519 (`cosignature/v1`, vkey type 0x04): a 64-byte signature over
 *   `cosignature/v1\ntime <t>\n` followed by the checkpoint text.
 * - ML-DSA-44 (`subtree/v1`, vkey type 0x06): a 2420-byte FIPS 204 signature (pure, empty
 *   context) over the `cosigned_message` structure: "subtree/v1\n\0", the cosigner name and the
 *   origin (each with a one-byte length), the timestamp, start 0, end = tree size, and the root.
 *
 * The key ID is SHA-256(name || 0x0A || type || public key)[:4].
 */
const TYPES: Record<CosignatureType, { byte: number; keySize: number; signatureSize: number }> = {
  ed25519: { byte: 0x04, keySize: 32, signatureSize: 64 },
  'ml-dsa-44': {
    byte: 0x06,
    keySize: ML_DSA_44_PUBLIC_KEY_SIZE,
    signatureSize: ML_DSA_44_SIGNATURE_SIZE,
  },
};
const LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/]+={0,2})$/u;
/** The longest signature line read: an ML-DSA-44 blob in base64 and a generous key name. */
const MAX_LINE_CHARS = 4 * 1024;
/** Verifiers must accept at least 16 signatures (signed-note "Format"); this caps the work. */
export const MAX_NOTE_SIGNATURES = 100;
const MAX_TIMESTAMP = 2n ** 63n - 1n;

const typeOf = (w: PinnedWitness): CosignatureType => w.type ?? 'ed25519';

export const cosignerKeyId = (
  name: string,
  publicKey: Uint8Array,
  type: CosignatureType = 'ed25519',
): Uint8Array =>
  sha256(concat(utf8(name), Uint8Array.of(0x0a, TYPES[type].byte), publicKey)).subarray(0, 4);

/**
 * A cosigner vkey `<name>+<hex key ID>+<base64(type || key)>` of type 0x04 (Ed25519) or 0x06
 * (ML-DSA-44), its key ID checked.
 */
export function parseCosignerKey(vkey: string): PinnedWitness | undefined {
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first <= 0 || second < 0 || vkey.length > MAX_LINE_CHARS) return undefined;
  const name = vkey.slice(0, first);
  const idHex = vkey.slice(first + 1, second);
  const raw = fromBase64(vkey.slice(second + 1));
  if (!/^[^\s+]+$/u.test(name) || !/^[0-9a-f]{8}$/.test(idHex) || !raw) return undefined;
  const type = (Object.keys(TYPES) as CosignatureType[]).find(
    (t) => raw[0] === TYPES[t].byte && raw.length === 1 + TYPES[t].keySize,
  );
  if (!type) return undefined;
  const publicKey = raw.subarray(1);
  const keyId = cosignerKeyId(name, publicKey, type);
  return hex(keyId) === idHex ? { name, keyId, publicKey, type } : undefined;
}

function timestampOf(bytes: Uint8Array): bigint {
  let t = 0n;
  for (const b of bytes) t = (t << 8n) | BigInt(b);
  return t;
}

const u64 = (n: bigint): Uint8Array => {
  const out = new Uint8Array(8);
  for (let i = 7, v = n; i >= 0; i -= 1, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
};

/** An opaque<1..2^8-1> (RFC 8446 §3.4), or undefined when empty or too long. */
const shortVector = (text: string): Uint8Array | undefined => {
  const bytes = utf8(text);
  return bytes.length >= 1 && bytes.length <= 255
    ? concat(Uint8Array.of(bytes.length), bytes)
    : undefined;
};

/** The checkpoint's origin, size and root hash from its first three lines, or undefined. */
function checkpointHead(
  text: string,
): { origin: string; size: bigint; root: Uint8Array } | undefined {
  const [origin, size, root] = text.split('\n', 3);
  const hash = fromBase64(root ?? '');
  if (!origin || !/^(0|[1-9][0-9]{0,19})$/.test(size ?? '') || hash?.length !== 32)
    return undefined;
  const n = BigInt(size as string);
  return n <= 2n ** 64n - 1n ? { origin, size: n, root: hash } : undefined;
}

/** The ML-DSA-44 `cosigned_message` of a checkpoint (start 0, end = its size). */
export function subtreeMessage(
  cosigner: string,
  timestamp: bigint,
  checkpointText: string,
): Uint8Array | undefined {
  const head = checkpointHead(checkpointText);
  const name = shortVector(cosigner);
  const origin = head ? shortVector(head.origin) : undefined;
  if (!head || !name || !origin) return undefined;
  return concat(
    utf8('subtree/v1\n\0'),
    name,
    u64(timestamp),
    origin,
    u64(0n),
    u64(head.size),
    head.root,
  );
}

/** The message `witness` signs over the checkpoint `text` at `timestamp`, by its type. */
function cosignedBytes(
  witness: PinnedWitness,
  timestamp: bigint,
  text: string,
): Uint8Array | undefined {
  return typeOf(witness) === 'ed25519'
    ? utf8(`cosignature/v1\ntime ${timestamp}\n${text}`)
    : subtreeMessage(witness.name, timestamp, text);
}

/** Whether `blob` (key ID || timestamp || signature) is `witness`'s cosignature of `text`. */
function verifies(witness: PinnedWitness, blob: Uint8Array, text: string): boolean {
  const type = typeOf(witness);
  const time = timestampOf(blob.subarray(4, 12));
  // an Ed25519 cosignature always states a time; an ML-DSA one may state none (0)
  if (time > MAX_TIMESTAMP || (type === 'ed25519' && time === 0n)) return false;
  const message = cosignedBytes(witness, time, text);
  if (!message) return false;
  const signature = blob.subarray(12);
  return type === 'ed25519'
    ? ed25519Verify(signature, message, witness.publicKey)
    : mlDsa44Verify(signature, message, witness.publicKey);
}

/**
 * Which pinned witnesses validly cosigned the checkpoint `text` in `note`, and which carry a
 * line under their name and key ID that does not verify. A line whose blob has another size
 * than its witness's signature type is not that witness's line (signed-note: lines a verifier
 * does not understand are ignored).
 */
export function countCosignatures(
  note: string,
  text: string,
  witnesses: readonly PinnedWitness[],
): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  const lines = note.slice(text.length + 1, -1).split('\n');
  for (const line of lines.slice(0, MAX_NOTE_SIGNATURES)) {
    const m = line.length <= MAX_LINE_CHARS ? LINE.exec(line) : null;
    const blob = m ? fromBase64(m[2] ?? '') : undefined;
    if (!m || !blob || blob.length < 12) continue;
    const witness = witnesses.find(
      (w) =>
        w.name === m[1] &&
        equalBytes(w.keyId, blob.subarray(0, 4)) &&
        blob.length === 12 + TYPES[typeOf(w)].signatureSize,
    );
    if (!witness) continue;
    if (verifies(witness, blob, text)) valid.add(witness.name);
    else invalid.add(witness.name);
  }
  return { valid: [...valid].filter((n) => !invalid.has(n)), invalid: [...invalid] };
}

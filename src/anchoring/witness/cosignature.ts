import { createHash } from 'node:crypto';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { verifyEd25519 } from '../ed25519.js';
import { base64Bytes } from '../signed-note.js';

/**
 * Witness cosignatures (c2sp.org/tlog-cosignature): a witness's note signature line whose blob
 * is key ID (4) || timestamp (u64 big-endian) || signature, of one of two types:
 *
 * - Ed25519 (vkey type 0x04, `cosignature/v1`): 64 bytes over `cosignature/v1\ntime <t>\n`
 *   followed by the checkpoint body;
 * - ML-DSA-44 (vkey type 0x06, `subtree/v1`): 2420 bytes (FIPS 204, pure, empty context) over
 *   the `cosigned_message` structure: "subtree/v1\n\0", the cosigner name and the log origin
 *   (each with a one-byte length), the timestamp, start 0, end = tree size, the root hash. It
 *   commits to the cosigner's name and is safe against a quantum computer; the spec recommends
 *   it for new deployments.
 *
 * The key ID is SHA-256(name || 0x0A || type || public key)[:4].
 */

export type CosignatureType = 'ed25519' | 'ml-dsa-44';

const TYPES: Record<CosignatureType, { byte: number; keySize: number; signatureSize: number }> = {
  ed25519: { byte: 0x04, keySize: 32, signatureSize: 64 },
  'ml-dsa-44': { byte: 0x06, keySize: 1312, signatureSize: 2420 },
};
const LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/]+={0,2})$/u;
/** Longer than any line of either type (an ML-DSA-44 blob is 3248 base64 characters). */
const MAX_LINE_CHARS = 4 * 1024;
const MAX_TIMESTAMP = 2n ** 63n - 1n;

/** A witness the log asks for cosignatures: its name, key, type and submission URL prefix. */
export interface Witness {
  name: string;
  publicKey: Uint8Array;
  keyId: Uint8Array;
  type: CosignatureType;
  /** The vkey it was configured with. */
  vkey: string;
  url: string;
}

export function cosignerKeyId(
  name: string,
  publicKey: Uint8Array,
  type: CosignatureType = 'ed25519',
): Uint8Array {
  const digest = createHash('sha256')
    .update(name, 'utf8')
    .update(Uint8Array.of(0x0a, TYPES[type].byte))
    .update(publicKey)
    .digest();
  return new Uint8Array(digest.subarray(0, 4));
}

/**
 * One `WITNESSES` item, `<vkey>@<url>`: the vkey of a cosigner (type 0x04 or 0x06, its key ID
 * checked) and the witness's submission prefix. Undefined when malformed.
 */
export function parseWitness(item: string): Witness | undefined {
  const at = item.indexOf('@');
  if (at < 0) return undefined;
  const url = item
    .slice(at + 1)
    .trim()
    .replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(url)) return undefined;
  const key = parseCosignerKey(item.slice(0, at).trim());
  return key ? { ...key, url } : undefined;
}

/** A cosigner vkey, `<name>+<hex key ID>+<base64(type || key)>`, its type and ID checked. */
export function parseCosignerKey(vkey: string): Omit<Witness, 'url'> | undefined {
  // the name and the hex key ID contain no '+'; the base64 key may
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  const [name, idHex, keyB64] = [
    vkey.slice(0, first),
    vkey.slice(first + 1, second),
    vkey.slice(second + 1),
  ];
  const raw =
    first > 0 && second > first && vkey.length <= MAX_LINE_CHARS ? base64Bytes(keyB64) : undefined;
  if (!name || !/^[0-9a-f]{8}$/.test(idHex) || !raw) return undefined;
  const type = (Object.keys(TYPES) as CosignatureType[]).find(
    (t) => raw[0] === TYPES[t].byte && raw.length === 1 + TYPES[t].keySize,
  );
  if (!type) return undefined;
  const publicKey = raw.subarray(1);
  const keyId = cosignerKeyId(name, publicKey, type);
  if (Buffer.from(keyId).toString('hex') !== idHex) return undefined;
  return { name, publicKey, keyId, type, vkey };
}

/** The Ed25519 `cosignature/v1` message. */
export function cosignedMessage(checkpointBody: string, timestamp: bigint): Uint8Array {
  return new TextEncoder().encode(`cosignature/v1\ntime ${timestamp}\n${checkpointBody}`);
}

const u64 = (n: bigint): Buffer => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(n);
  return out;
};

/** opaque<1..2^8-1> (RFC 8446 §3.4), or undefined when empty or longer than 255 bytes. */
function shortVector(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length >= 1 && bytes.length <= 255
    ? Buffer.concat([Uint8Array.of(bytes.length), bytes])
    : undefined;
}

/**
 * The ML-DSA-44 `subtree/v1` message of a checkpoint (start 0, end its size) from its origin,
 * size and root lines; undefined when they are malformed.
 */
export function subtreeMessage(
  cosigner: string,
  timestamp: bigint,
  checkpointBody: string,
): Uint8Array | undefined {
  const [origin = '', size = '', root = ''] = checkpointBody.split('\n', 3);
  const hash = base64Bytes(root);
  const name = shortVector(cosigner);
  const log = shortVector(origin);
  if (!name || !log || hash?.length !== 32 || !/^(0|[1-9][0-9]{0,18})$/.test(size)) {
    return undefined;
  }
  const label = Buffer.from('subtree/v1\n\0', 'latin1');
  return new Uint8Array(
    Buffer.concat([label, name, u64(timestamp), log, u64(0n), u64(BigInt(size)), hash]),
  );
}

function verifies(
  witness: Omit<Witness, 'url'>,
  timestamp: bigint,
  signature: Uint8Array,
  body: string,
): boolean {
  if (witness.type === 'ed25519') {
    return verifyEd25519(signature, cosignedMessage(body, timestamp), witness.publicKey);
  }
  const message = subtreeMessage(witness.name, timestamp, body);
  try {
    return message !== undefined && ml_dsa44.verify(signature, message, witness.publicKey);
  } catch {
    return false;
  }
}

/**
 * The line (without its newline) if it is `witness`'s valid cosignature of `checkpointBody`
 * (the note text, up to and including its final newline), else undefined. The timestamp must
 * be set (tlog-witness: a witness's cosignature never omits it) and at most 2^63 - 1.
 */
export function validCosignature(
  line: string,
  witness: Omit<Witness, 'url'>,
  checkpointBody: string,
): { line: string; timestamp: bigint } | undefined {
  const match = line.length <= MAX_LINE_CHARS ? LINE.exec(line) : null;
  if (!match || match[1] !== witness.name) return undefined;
  const blob = base64Bytes(match[2] as string);
  if (blob?.length !== 12 + TYPES[witness.type].signatureSize) return undefined;
  if (!Buffer.from(blob.subarray(0, 4)).equals(Buffer.from(witness.keyId))) return undefined;
  const timestamp = Buffer.from(blob.subarray(4, 12)).readBigUInt64BE();
  if (timestamp === 0n || timestamp > MAX_TIMESTAMP) return undefined;
  return verifies(witness, timestamp, blob.subarray(12), checkpointBody)
    ? { line, timestamp }
    : undefined;
}

import { createHash } from 'node:crypto';
import { verifyEd25519 } from '../ed25519.js';
import { base64Bytes } from '../signed-note.js';

/**
 * Ed25519 cosignatures (c2sp.org/tlog-cosignature, `cosignature/v1`): a witness's note signature
 * line over `cosignature/v1\ntime <t>\n` followed by the checkpoint body, whose blob is
 * key ID (4) || timestamp (u64 big-endian) || Ed25519 signature (64). The key ID is
 * SHA-256(name || 0x0A || 0x04 || public key)[:4]. ML-DSA-44 cosignatures are not supported.
 */

const COSIGNATURE_TYPE = 0x04;
const BLOB_SIZE = 4 + 8 + 64;
const LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/]+={0,2})$/u;

/** A witness the log asks for cosignatures: its name, Ed25519 key and submission URL prefix. */
export interface Witness {
  name: string;
  publicKey: Uint8Array;
  keyId: Uint8Array;
  /** The vkey it was configured with. */
  vkey: string;
  url: string;
}

export function cosignerKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  const digest = createHash('sha256')
    .update(name, 'utf8')
    .update(Uint8Array.of(0x0a, COSIGNATURE_TYPE))
    .update(publicKey)
    .digest();
  return new Uint8Array(digest.subarray(0, 4));
}

/**
 * One `WITNESSES` item, `<vkey>@<url>`: the vkey of an Ed25519 cosigner (type 0x04, its key ID
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

/** An Ed25519 cosigner vkey, `<name>+<hex key ID>+<base64(0x04 || key)>`, its ID checked. */
export function parseCosignerKey(vkey: string): Omit<Witness, 'url'> | undefined {
  // the name and the hex key ID contain no '+'; the base64 key may
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  const [name, idHex, keyB64] = [
    vkey.slice(0, first),
    vkey.slice(first + 1, second),
    vkey.slice(second + 1),
  ];
  const raw = first > 0 && second > first ? base64Bytes(keyB64) : undefined;
  if (!name || !/^[0-9a-f]{8}$/.test(idHex) || raw?.length !== 33 || raw[0] !== COSIGNATURE_TYPE) {
    return undefined;
  }
  const publicKey = raw.subarray(1);
  const keyId = cosignerKeyId(name, publicKey);
  if (Buffer.from(keyId).toString('hex') !== idHex) return undefined;
  return { name, publicKey, keyId, vkey };
}

export function cosignedMessage(checkpointBody: string, timestamp: bigint): Uint8Array {
  return new TextEncoder().encode(`cosignature/v1\ntime ${timestamp}\n${checkpointBody}`);
}

/**
 * The line (without its newline) if it is `witness`'s valid cosignature of `checkpointBody`
 * (the note text, up to and including its final newline), else undefined.
 */
export function validCosignature(
  line: string,
  witness: Omit<Witness, 'url'>,
  checkpointBody: string,
): { line: string; timestamp: bigint } | undefined {
  const match = LINE.exec(line);
  if (!match || match[1] !== witness.name) return undefined;
  const blob = base64Bytes(match[2] as string);
  if (blob?.length !== BLOB_SIZE) return undefined;
  if (!Buffer.from(blob.subarray(0, 4)).equals(Buffer.from(witness.keyId))) return undefined;
  const timestamp = Buffer.from(blob.subarray(4, 12)).readBigUInt64BE();
  if (timestamp === 0n || timestamp > 2n ** 63n - 1n) return undefined;
  const message = cosignedMessage(checkpointBody, timestamp);
  return verifyEd25519(blob.subarray(12), message, witness.publicKey)
    ? { line, timestamp }
    : undefined;
}

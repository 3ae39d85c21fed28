import { createHash } from 'node:crypto';
import { ED25519_PUBLIC_KEY_SIZE, ED25519_SIGNATURE_SIZE, verifyEd25519 } from './ed25519.js';
import { CheckpointError } from './errors.js';

/**
 * C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 signatures (type 0x01): text
 * ending in a newline, a blank line, then lines `— <key name> <base64(key ID || signature)>`.
 */

/** The key that signs notes; `sign` returns a 64-byte RFC 8032 Ed25519 signature of `message`. */
export interface NoteSigner {
  keyName: string;
  /** Raw 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  sign(message: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

/** A key a verifier trusts: its name and raw 32-byte Ed25519 public key. */
export interface NoteVerifierKey {
  keyName: string;
  publicKey: Uint8Array;
}

/** One parsed signature line. */
interface NoteSignature {
  keyName: string;
  keyId: Uint8Array;
  signature: Uint8Array;
}

/** signed-note "Signature types": the identifier byte of Ed25519. */
const ED25519_SIGNATURE_TYPE = 0x01;
const KEY_ID_SIZE = 4;
/** Verifiers must accept at least 16 signatures (signed-note "Format"); this caps the work. */
const MAX_SIGNATURES = 100;
const SIGNATURE_LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/]+={0,2})$/u;
/**
 * Whether `text` may appear in a note (signed-note "Format"): no ASCII control character other
 * than newline, and valid UTF-8, i.e. no lone UTF-16 surrogate.
 */
export function isNoteSafe(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if ((code < 0x20 && code !== 0x0a) || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

/** The bytes of canonical standard base64 (RFC 4648 §4), or undefined for any other string. */
export function base64Bytes(text: string): Uint8Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}

/** signed-note "Ed25519 signatures": SHA-256(key name || 0x0A || 0x01 || public key)[:4]. */
export function keyId(keyName: string, publicKey: Uint8Array): Uint8Array {
  const digest = createHash('sha256')
    .update(keyName, 'utf8')
    .update(Uint8Array.of(0x0a, ED25519_SIGNATURE_TYPE))
    .update(publicKey)
    .digest();
  return new Uint8Array(digest.subarray(0, KEY_ID_SIZE));
}

/**
 * The note verifier key (signed-note "Verifier keys"): `<name>+<hex key ID>+<base64(0x01 || key)>`,
 * what a client needs to check this log's checkpoints (published, and carried in bundles).
 */
export function verifierKey(key: NoteVerifierKey): string {
  checkKey(key);
  const id = Buffer.from(keyId(key.keyName, key.publicKey)).toString('hex');
  const encoded = Buffer.concat([Uint8Array.of(ED25519_SIGNATURE_TYPE), key.publicKey]);
  return `${key.keyName}+${id}+${encoded.toString('base64')}`;
}

/** Key names are non-empty and contain no Unicode space and no plus (signed-note "Format"). */
function checkKey(key: NoteVerifierKey): void {
  if (!/^[^\s+]+$/u.test(key.keyName) || !isNoteSafe(key.keyName)) {
    throw new CheckpointError('invalid_input', 'key name must be non-empty, without spaces or +');
  }
  if (key.publicKey.length !== ED25519_PUBLIC_KEY_SIZE) {
    throw new CheckpointError('invalid_input', 'Ed25519 public key must be 32 raw bytes');
  }
}

/** A signed note of `text` (which must end in a newline) with a single signature by `signer`. */
export async function signNote(text: string, signer: NoteSigner): Promise<string> {
  checkKey(signer);
  if (!text.endsWith('\n') || !isNoteSafe(text)) {
    throw new CheckpointError('invalid_input', 'note text must end in a newline, without controls');
  }
  const signature = await signer.sign(new TextEncoder().encode(text));
  if (signature.length !== ED25519_SIGNATURE_SIZE) {
    throw new CheckpointError('invalid_input', 'signer must return a 64-byte Ed25519 signature');
  }
  const blob = Buffer.concat([keyId(signer.keyName, signer.publicKey), signature]);
  return `${text}\n\u2014 ${signer.keyName} ${blob.toString('base64')}\n`;
}

/** Parses one `— <key name> <base64>` line (without its newline). */
function signatureLine(line: string): NoteSignature {
  const match = SIGNATURE_LINE.exec(line);
  const blob = match ? base64Bytes(match[2] as string) : undefined;
  if (!match || !blob || blob.length <= KEY_ID_SIZE) {
    throw new CheckpointError('malformed_note', 'malformed signature line');
  }
  return {
    keyName: match[1] as string,
    keyId: blob.subarray(0, KEY_ID_SIZE),
    signature: blob.subarray(KEY_ID_SIZE),
  };
}

/** Splits a note at its last blank line into the text (with final newline) and signatures. */
function noteParts(note: string): { text: string; signatures: NoteSignature[] } {
  const blank = note.lastIndexOf('\n\n');
  if (!isNoteSafe(note) || blank < 0 || !note.endsWith('\n')) {
    throw new CheckpointError('malformed_note', 'not a signed note');
  }
  const lines = note.slice(blank + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) {
    throw new CheckpointError('malformed_note', 'too many signatures');
  }
  return { text: note.slice(0, blank + 1), signatures: lines.map(signatureLine) };
}

/**
 * The text of `note` once verified with `key` (signed-note "Signatures"): signatures by other keys
 * are ignored, at least one by `key` (same name and key ID) must exist, and all of those must
 * verify. Throws `CheckpointError` otherwise.
 */
export function openNote(note: string, key: NoteVerifierKey): string {
  checkKey(key);
  const { text, signatures } = noteParts(note);
  const id = Buffer.from(keyId(key.keyName, key.publicKey));
  const own = signatures.filter((s) => s.keyName === key.keyName && id.equals(s.keyId));
  if (own.length === 0) throw new CheckpointError('unknown_key', 'no signature by the trusted key');
  const message = new TextEncoder().encode(text);
  if (!own.every((s) => verifyEd25519(s.signature, message, key.publicKey))) {
    throw new CheckpointError('invalid_signature', 'signature by the trusted key does not verify');
  }
  return text;
}

import { concat, equalBytes, fromBase64, utf8 } from '../encoding.js';
import { ed25519Verify, sha256 } from '../primitives.js';

/**
 * C2SP signed-note (https://c2sp.org/signed-note) verification with Ed25519 keys, and
 * tlog-checkpoint (https://c2sp.org/tlog-checkpoint) bodies, written from the specs alone.
 */

/** A note verifier key `<name>+<hex key ID>+<base64(0x01 || 32-byte key)>`, parsed. */
export interface VerifierKey {
  name: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
}

const ED25519 = 0x01;

/** The 4-byte key ID: SHA-256(name || "\n" || 0x01 || public key)[:4]. */
export const noteKeyId = (name: string, publicKey: Uint8Array): Uint8Array =>
  sha256(concat(utf8(name), Uint8Array.of(0x0a, ED25519), publicKey)).subarray(0, 4);

/** The vkey string of `publicKey` under `name`. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  const id = Array.from(noteKeyId(name, publicKey), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
  const encoded = btoa(String.fromCharCode(ED25519, ...publicKey));
  return `${name}+${id}+${encoded}`;
}

/** Parses a vkey; undefined unless it is a well-formed Ed25519 key whose ID matches. */
export function parseVerifierKey(vkey: string): VerifierKey | undefined {
  // the name and the hex ID contain no '+'; the base64 key may
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first < 0 || second < 0) return undefined;
  const name = vkey.slice(0, first);
  const idHex = vkey.slice(first + 1, second);
  const keyB64 = vkey.slice(second + 1);
  const raw = fromBase64(keyB64);
  if (!/^[^\s+]+$/u.test(name) || !/^[0-9a-f]{8}$/.test(idHex) || raw?.length !== 33)
    return undefined;
  if (raw[0] !== ED25519) return undefined;
  const publicKey = raw.subarray(1);
  const keyId = noteKeyId(name, publicKey);
  const hexId = Array.from(keyId, (b) => b.toString(16).padStart(2, '0')).join('');
  return hexId === idHex ? { name, keyId, publicKey } : undefined;
}

export type NoteResult = { ok: true; text: string } | { ok: false; reason: string };

const SIGNATURE_LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/]+={0,2})$/u;

/**
 * The note's text once a signature by `key` verifies: the text ends at the last blank line,
 * signature lines follow; lines by other keys are ignored; at least one by `key` must exist and
 * every one of those must verify.
 */
export function openNote(note: string, key: VerifierKey): NoteResult {
  const blank = note.lastIndexOf('\n\n');
  if (blank < 0 || !note.endsWith('\n')) return { ok: false, reason: 'not a signed note' };
  const text = note.slice(0, blank + 1);
  const lines = note.slice(blank + 2, -1).split('\n');
  if (lines.length > 100) return { ok: false, reason: 'too many signature lines' };
  const message = utf8(text);
  let found = 0;
  for (const line of lines) {
    const m = SIGNATURE_LINE.exec(line);
    const blob = m ? fromBase64(m[2] ?? '') : undefined;
    if (!m || !blob || blob.length < 5) return { ok: false, reason: `malformed signature line` };
    if (m[1] !== key.name || !equalBytes(blob.subarray(0, 4), key.keyId)) continue;
    found += 1;
    if (!ed25519Verify(blob.subarray(4), message, key.publicKey)) {
      return { ok: false, reason: `the signature by ${key.name} does not verify` };
    }
  }
  return found > 0 ? { ok: true, text } : { ok: false, reason: `no signature by ${key.name}` };
}

export interface CheckpointBody {
  origin: string;
  treeSize: number;
  rootHash: Uint8Array;
}

/** The three mandatory checkpoint lines (origin, decimal size, base64 root); no extensions. */
export function parseCheckpointBody(text: string): CheckpointBody | undefined {
  const [origin, size, root, ...rest] = text.split('\n');
  const rootHash = fromBase64(root ?? '');
  const treeSize = Number(size);
  if (!origin || !/^(0|[1-9][0-9]*)$/.test(size ?? '') || !Number.isSafeInteger(treeSize)) {
    return undefined;
  }
  if (rootHash?.length !== 32 || rest.length !== 1 || rest[0] !== '') return undefined;
  return { origin, treeSize, rootHash };
}

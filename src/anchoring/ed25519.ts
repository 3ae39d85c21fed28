import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';

// @noble/ed25519 v3 needs a synchronous SHA-512 for its synchronous API; node:crypto provides one.
ed.hashes.sha512 ??= (message) => new Uint8Array(createHash('sha512').update(message).digest());

/** Length in bytes of a raw Ed25519 public key and of a signature (RFC 8032 §5.1.5, §5.1.6). */
export const ED25519_PUBLIC_KEY_SIZE = 32;
export const ED25519_SIGNATURE_SIZE = 64;

/**
 * RFC 8032 §5.1.7 verification with @noble/ed25519's strict branch (`zip215: false`: canonical
 * encodings required), so a signature valid here is valid for every conforming verifier.
 * Returns false, rather than throwing, for inputs of the wrong length.
 */
export function verifyEd25519(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  if (signature.length !== ED25519_SIGNATURE_SIZE) return false;
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) return false;
  return ed.verify(signature, message, publicKey, { zip215: false });
}

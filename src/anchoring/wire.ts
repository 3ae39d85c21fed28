import { LogError } from './errors.js';
import { isHash } from './merkle.js';

/** Wire form of every hash: `sha256:` followed by 64 lowercase hex digits. */
const WIRE_HASH = /^sha256:[0-9a-f]{64}$/;

/** `sha256:<64 lowercase hex>` for a 32-byte hash. */
export function hashToWire(hash: Uint8Array): string {
  if (!isHash(hash)) {
    throw new LogError('malformed_hash', `hash must be 32 bytes, got ${hash.length}`);
  }
  return `sha256:${Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex')}`;
}

/** The 32 bytes of a `sha256:<64 lowercase hex>` string; anything else is a `LogError`. */
export function hashFromWire(wire: string): Uint8Array {
  if (!WIRE_HASH.test(wire)) {
    throw new LogError('malformed_hash', 'expected sha256:<64 lowercase hex>');
  }
  return new Uint8Array(Buffer.from(wire.slice('sha256:'.length), 'hex'));
}

/** A proof as it travels: an array of wire hashes, in proof order. */
export function proofToWire(proof: readonly Uint8Array[]): string[] {
  return proof.map(hashToWire);
}

/** The hashes of a wire proof; any malformed element is a `LogError`. */
export function proofFromWire(wire: readonly string[]): Uint8Array[] {
  return wire.map(hashFromWire);
}

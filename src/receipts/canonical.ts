import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { StoredReceipt } from './types.js';

/** The receipt without its own hash and signature: what the hash commits to. */
export type UnsignedReceipt = Omit<StoredReceipt, 'receiptHash' | 'receiptSignature'>;

/** RFC 8785 (JCS) serialisation. Throws on values JSON cannot represent. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

/** `sha256:<64 lowercase hex>` of the UTF-8 bytes of a string or of raw bytes. */
export function sha256Digest(data: string | Uint8Array): string {
  const hash = createHash('sha256');
  hash.update(data);
  return `sha256:${hash.digest('hex')}`;
}

/** The canonical receipt string: JCS of the receipt minus receiptHash and receiptSignature. */
export function canonicalReceipt(receipt: UnsignedReceipt | StoredReceipt): string {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { receiptHash, receiptSignature, ...unsigned } = receipt as StoredReceipt;
  return canonicalJson(unsigned);
}

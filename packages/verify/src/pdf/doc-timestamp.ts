import { sha256, sha384, sha512 } from '@noble/hashes/sha2';
import { DerError, equalBytes, readNode } from '../timestamp/der.js';
import { hashName } from '../timestamp/signature.js';
import { parseToken } from '../timestamp/token-parse.js';
import type { RawPdfSignature } from './signature.js';

/**
 * A document time-stamp added after the service's signature (ETSI EN 319 142-1 5.4: /Type
 * /DocTimeStamp, /SubFilter /ETSI.RFC3161) is only accepted as what it claims to be: its byte
 * range ends where its own revision ends, and its /Contents is an RFC 3161 token whose message
 * imprint is the hash of those bytes. Its authority is not judged here (the relying party pins
 * none for the PDF); the time-stamp adds no trust, it is only allowed to be there.
 */

const DIGESTS: Record<string, (data: Uint8Array) => Uint8Array> = {
  'SHA-256': sha256,
  'SHA-384': sha384,
  'SHA-512': sha512,
};

/** Why `raw` is not a document time-stamp of the bytes of `file` its range covers. */
export function docTimeStampProblem(raw: RawPdfSignature, file: Uint8Array): string | undefined {
  const [, a = 0, b = 0, c = 0] = raw.byteRange;
  let imprint: Uint8Array;
  let hash: string | undefined;
  try {
    const token = parseToken(readNode(raw.contents).bytes);
    imprint = token.imprint;
    hash = hashName(token.imprintHash);
  } catch (err) {
    if (!(err instanceof DerError)) throw err;
    return 'is not an RFC 3161 time-stamp token';
  }
  const digest = hash ? DIGESTS[hash] : undefined;
  if (!digest) return 'uses an unsupported hash';
  const signed = new Uint8Array(a + c);
  signed.set(file.subarray(0, a), 0);
  signed.set(file.subarray(b, b + c), a);
  return equalBytes(digest(signed), imprint) ? undefined : 'is not over the bytes it covers';
}

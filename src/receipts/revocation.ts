import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { decodeBase64url } from './base64url.js';

/**
 * Revocation signed by a revoker (docs/glossary.md: the party registered to revoke a tenant's
 * receipts; the specification's headers call it the issuer): x-issuer-signature is a base64url
 * Ed25519 signature by the revoker's registered key over
 * `revoke\n<receiptId>\n<x-issuer-id>\n<x-signature-timestamp>`, and the timestamp must be within
 * the allowed skew of server time (either direction):
 * docs/decisions/0015-revocation-is-signed-by-a-registered-revoker.md.
 */
export function revocationMessage(receiptId: string, revokerId: string, timestamp: string): string {
  return `revoke\n${receiptId}\n${revokerId}\n${timestamp}`;
}

/** The three revocation headers: `x-issuer-id` (the revoker), its timestamp and signature. */
export interface RevocationHeaders {
  issuerId: string;
  timestamp: string;
  signature: string;
}

export interface RevokerKey {
  issuerId: string;
  tenant: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  publicKey: string;
}

export type RevocationAuthorization =
  { ok: true } | { ok: false; code: 'unauthorized' | 'forbidden'; reason: string };

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function authorizeRevocation(input: {
  headers: RevocationHeaders;
  revoker: RevokerKey | undefined;
  tenant: string;
  receiptId: string;
  now: Date;
  skewSeconds: number;
}): RevocationAuthorization {
  const { headers, revoker } = input;
  if (!revoker) return deny('unauthorized', 'x-issuer-id names no registered revoker');
  if (!RFC3339.test(headers.timestamp)) {
    return deny('unauthorized', 'x-signature-timestamp is not an RFC 3339 date-time');
  }
  const skew = Math.abs(input.now.getTime() - Date.parse(headers.timestamp)) / 1000;
  if (!(skew <= input.skewSeconds)) {
    return deny(
      'unauthorized',
      `x-signature-timestamp is more than ${input.skewSeconds}s from server time`,
    );
  }
  const message = revocationMessage(input.receiptId, headers.issuerId, headers.timestamp);
  if (!signatureValid(revoker.publicKey, message, headers.signature)) {
    return deny('unauthorized', 'x-issuer-signature does not verify');
  }
  if (revoker.tenant !== input.tenant) {
    return deny('forbidden', 'this revoker (x-issuer-id) is not authorised for this tenant');
  }
  return { ok: true };
}

function deny(code: 'unauthorized' | 'forbidden', reason: string): RevocationAuthorization {
  return { ok: false, code, reason };
}

/** An Ed25519 signature (base64url, exactly 64 bytes) by a raw base64url key over `message`. */
export function signatureValid(
  publicKeyB64url: string,
  message: string,
  signatureB64url: string,
): boolean {
  const signature = decodeBase64url(signatureB64url);
  if (signature?.length !== 64) return false;
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: publicKeyB64url },
      format: 'jwk',
    });
    return verify(null, Buffer.from(message, 'utf8'), key, signature);
  } catch {
    return false;
  }
}

/** What `receipts sign-revocation` prints: the three headers for one revocation. */
export function signRevocation(
  privateKeyPem: string,
  issuerId: string,
  receiptId: string,
  timestamp: string,
): RevocationHeaders {
  const key = createPrivateKey(privateKeyPem);
  const signature = sign(null, Buffer.from(revocationMessage(receiptId, issuerId, timestamp)), key);
  return { issuerId, timestamp, signature: signature.toString('base64url') };
}

/** Raw base64url public key of an Ed25519 PEM (public or private). */
export function rawEd25519PublicKey(pem: string): string {
  const jwk = createPublicKey(pem).export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new TypeError('not an Ed25519 key');
  }
  return jwk.x;
}

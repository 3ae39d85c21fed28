import { children, DerError, oidOf, readWhole, sequence, TAG, unsignedInteger } from './der.js';

/**
 * Signature checks of time-stamp tokens and certificates through WebCrypto (Node and browsers
 * alike): RSASSA-PKCS1-v1_5 and ECDSA on P-256 or P-384, with SHA-256, SHA-384 or SHA-512.
 * Anything else is refused (false), never guessed.
 */

const HASH_BY_OID: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

/** Signature algorithm OIDs: [key type, hash]; a bare key type takes the digest algorithm's hash. */
const SIGNATURE_BY_OID: Record<string, [kind: 'rsa' | 'ec', hash: string | undefined]> = {
  '1.2.840.113549.1.1.1': ['rsa', undefined],
  '1.2.840.113549.1.1.11': ['rsa', 'SHA-256'],
  '1.2.840.113549.1.1.12': ['rsa', 'SHA-384'],
  '1.2.840.113549.1.1.13': ['rsa', 'SHA-512'],
  '1.2.840.10045.2.1': ['ec', undefined],
  '1.2.840.10045.4.3.2': ['ec', 'SHA-256'],
  '1.2.840.10045.4.3.3': ['ec', 'SHA-384'],
  '1.2.840.10045.4.3.4': ['ec', 'SHA-512'],
};

const CURVE_BY_OID: Record<string, { name: string; size: number }> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', size: 32 },
  '1.3.132.0.34': { name: 'P-384', size: 48 },
};

/** The WebCrypto name of a digest AlgorithmIdentifier's hash, or undefined. */
export function hashName(oid: string): string | undefined {
  return HASH_BY_OID[oid];
}

export interface SignatureInput {
  /** DER SubjectPublicKeyInfo of the signer. */
  spki: Uint8Array;
  /** The signature algorithm OID (SignerInfo.signatureAlgorithm or a certificate's). */
  algorithm: string;
  /** The digest algorithm OID, for bare `rsaEncryption` / `id-ecPublicKey` signature OIDs. */
  digestAlgorithm?: string;
  signature: Uint8Array;
  data: Uint8Array;
}

export async function verifySignature(input: SignatureInput): Promise<boolean> {
  try {
    const entry = SIGNATURE_BY_OID[input.algorithm];
    if (!entry) return false;
    const hash = entry[1] ?? (input.digestAlgorithm ? hashName(input.digestAlgorithm) : undefined);
    if (!hash) return false;
    const subtle = globalThis.crypto.subtle;
    const spki = copy(input.spki);
    const data = copy(input.data);
    if (entry[0] === 'rsa') {
      const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash };
      const key = await subtle.importKey('spki', spki, algorithm, false, ['verify']);
      return await subtle.verify(algorithm, key, copy(input.signature), data);
    }
    const curve = curveOf(input.spki);
    if (!curve) return false;
    const raw = rawEcdsa(input.signature, curve.size);
    if (!raw) return false;
    const key = await subtle.importKey(
      'spki',
      spki,
      { name: 'ECDSA', namedCurve: curve.name },
      false,
      ['verify'],
    );
    return await subtle.verify({ name: 'ECDSA', hash }, key, raw, data);
  } catch {
    return false;
  }
}

/** A copy on an ArrayBuffer of its own (WebCrypto takes no view of a shared buffer). */
const copy = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/** The key's algorithm as reports name it (`RSA`, `ECDSA P-256`), from a SubjectPublicKeyInfo. */
export function keyAlgorithm(spki: Uint8Array): string {
  try {
    const [algorithm] = sequence(readWhole(spki), 'spki');
    const [oid] = sequence(algorithm, 'spki algorithm');
    const kind = SIGNATURE_BY_OID[oidOf(oid)]?.[0];
    if (kind === 'rsa') return 'RSA';
    const curve = kind === 'ec' ? curveOf(spki) : undefined;
    return curve ? `ECDSA ${curve.name}` : 'unknown';
  } catch (err) {
    if (err instanceof DerError) return 'unknown';
    throw err;
  }
}

function curveOf(spki: Uint8Array): { name: string; size: number } | undefined {
  const [algorithm] = sequence(readWhole(spki), 'spki');
  const [, params] = sequence(algorithm, 'spki algorithm');
  return params?.tag === TAG.oid ? CURVE_BY_OID[oidOf(params)] : undefined;
}

/** An ECDSA-Sig-Value (SEQUENCE of r and s) as the fixed-size r || s WebCrypto takes. */
function rawEcdsa(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> | undefined {
  try {
    const parts = children(readWhole(der));
    if (parts.length !== 2) return undefined;
    const out = new Uint8Array(2 * size);
    for (const [i, part] of parts.entries()) {
      const n = unsignedInteger(part);
      if (n.length > size) return undefined;
      out.set(n, (i + 1) * size - n.length);
    }
    return out;
  } catch (err) {
    if (err instanceof DerError) return undefined;
    throw err;
  }
}

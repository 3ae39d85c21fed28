import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

/** The public half of an Ed25519 key as published in the JWKS (RFC 8037). */
export interface Ed25519PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** Signs bytes, never objects: callers canonicalise first. Keys stay behind this interface. */
export interface Signer {
  readonly alg: 'EdDSA';
  readonly kid: string;
  readonly publicJwk: Ed25519PublicJwk;
  sign(message: Uint8Array): Uint8Array;
}

/** RFC 7638 thumbprint of an OKP key: sha256 over {"crv","kty","x"} in lexical order, base64url. */
export function jwkThumbprint(x: string): string {
  const json = `{"crv":"Ed25519","kty":"OKP","x":"${x}"}`;
  return createHash('sha256').update(json, 'utf8').digest('base64url');
}

export function publicJwkOf(key: KeyObject): Ed25519PublicJwk {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new TypeError('signing key must be Ed25519');
  }
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: jwk.x,
    kid: jwkThumbprint(jwk.x),
    alg: 'EdDSA',
    use: 'sig',
  };
}

/** An Ed25519 signer over node:crypto (the fast path used on the request path). */
export function createSigner(privateKeyPem: string): Signer {
  const privateKey = createPrivateKey(privateKeyPem);
  const publicJwk = publicJwkOf(privateKey);
  return {
    alg: 'EdDSA',
    kid: publicJwk.kid,
    publicJwk,
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

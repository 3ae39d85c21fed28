import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical.js';

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

/** A statement's detached Ed25519 signature, named by the signing key's RFC 7638 kid. */
export interface StatementSignature {
  alg: 'EdDSA';
  kid: string;
  /** base64url of the signature over the UTF-8 canonical statement. */
  signature: string;
}

/**
 * A statement in its RFC 8785 form, signed with `signer` (status statements, deployment
 * decisions, the PDF certificate's endorsement all sign this way).
 */
export function signStatement(
  statement: unknown,
  signer: Signer,
): { canonicalStatement: string; signature: StatementSignature } {
  const canonicalStatement = canonicalJson(statement);
  const signature = signer.sign(Buffer.from(canonicalStatement, 'utf8'));
  return {
    canonicalStatement,
    signature: {
      alg: 'EdDSA',
      kid: signer.publicJwk.kid,
      signature: Buffer.from(signature).toString('base64url'),
    },
  };
}

import { createHash } from 'node:crypto';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';

/**
 * The receipt's second, post-quantum signature: ML-DSA-44 (FIPS 204, pure, empty context) over
 * the same canonical bytes the Ed25519 signature covers. Its public key is published in the JWKS
 * as an AKP JWK ("ML-DSA for JOSE and COSE", draft-ietf-cose-dilithium): `kty` "AKP", `alg`
 * "ML-DSA-44", `pub` the base64url 1312-byte key, `kid` its RFC 7638 thumbprint over `alg`,
 * `kty` and `pub`. Signing is deterministic (FIPS 204's deterministic variant), so a receipt's
 * bundle is the same bytes each time it is served.
 */
export interface MlDsaPublicJwk {
  kty: 'AKP';
  alg: 'ML-DSA-44';
  pub: string;
  kid: string;
  use: 'sig';
}

export interface PqSigner {
  readonly publicJwk: MlDsaPublicJwk;
  sign(message: Uint8Array): Uint8Array;
}

export function akpThumbprint(pub: string): string {
  const json = `{"alg":"ML-DSA-44","kty":"AKP","pub":"${pub}"}`;
  return createHash('sha256').update(json, 'utf8').digest('base64url');
}

/** The signer of a 32-byte FIPS 204 key generation seed (ML-DSA.KeyGen_internal's ξ). */
export function createPqSigner(seed: Uint8Array): PqSigner {
  if (seed.length !== 32) throw new TypeError('an ML-DSA-44 seed is 32 bytes');
  const { publicKey, secretKey } = ml_dsa44.keygen(seed);
  const pub = Buffer.from(publicKey).toString('base64url');
  const publicJwk: MlDsaPublicJwk = {
    kty: 'AKP',
    alg: 'ML-DSA-44',
    pub,
    kid: akpThumbprint(pub),
    use: 'sig',
  };
  const recent = new Map<string, Uint8Array>();
  return {
    publicJwk,
    sign: (message) => {
      const digest = createHash('sha256').update(message).digest('hex');
      const known = recent.get(digest);
      if (known) return known;
      const signature = ml_dsa44.sign(message, secretKey, { extraEntropy: false });
      if (recent.size >= RECENT_SIGNATURES) recent.delete(recent.keys().next().value!);
      recent.set(digest, signature);
      return signature;
    },
  };
}

/**
 * Signatures kept per process (2,420 bytes each, about 2.4 MB in all). A bundle or PDF is signed
 * when it is served, and one ML-DSA-44 signature costs about 10 ms of CPU, 200 times an Ed25519
 * one: a receipt fetched again (the same canonical bytes, so the same deterministic signature)
 * costs a hash instead.
 */
const RECENT_SIGNATURES = 1024;

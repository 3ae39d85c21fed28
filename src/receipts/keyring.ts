import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { decodeBase64url } from './base64url.js';
import type { Ed25519PublicJwk } from './signer.js';

export type SignatureCheck =
  | { status: 'verified' }
  | { status: 'invalid'; reason: string }
  | { status: 'unknown-kid'; reason: string };

/** Every public key the service has signed with, active and retired: verification only. */
export class KeyRing {
  private readonly keys = new Map<string, KeyObject>();

  constructor(private readonly jwks: readonly Ed25519PublicJwk[]) {
    for (const jwk of jwks) {
      this.keys.set(
        jwk.kid,
        createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }),
      );
    }
  }

  has(kid: string): boolean {
    return this.keys.has(kid);
  }

  /** The keys as published in the JWKS. */
  get publicJwks(): readonly Ed25519PublicJwk[] {
    return this.jwks;
  }

  /** Raw 32-byte public keys, for signed-note (checkpoint) verification. */
  publicKeys(): Uint8Array[] {
    return this.jwks.map((k) => new Uint8Array(Buffer.from(k.x, 'base64url')));
  }

  /** Checks a base64url Ed25519 signature over `message` by the key named `kid`. */
  check(kid: string, message: Uint8Array, signatureB64url: string): SignatureCheck {
    const key = this.keys.get(kid);
    if (!key) return { status: 'unknown-kid', reason: `no key with kid ${kid} in the key ring` };
    const signature = decodeBase64url(signatureB64url);
    if (!signature || signature.length !== 64) {
      return { status: 'invalid', reason: 'signature is not 64 bytes of base64url' };
    }
    return verify(null, message, key, signature)
      ? { status: 'verified' }
      : { status: 'invalid', reason: 'signature does not match the canonical receipt' };
  }
}

/**
 * The key ring as the store has it now, rebuilt only when the set of keys changes (a rotation
 * by the CLI, possibly in another process): the store is asked every time, the keys are parsed
 * once.
 */
export class KeyRingSource {
  private cached: { ids: string; ring: KeyRing } | undefined;

  constructor(private readonly load: () => Promise<Ed25519PublicJwk[]>) {}

  async current(): Promise<KeyRing> {
    const jwks = await this.load();
    const ids = jwks.map((k) => `${k.kid}:${k.x}`).join(',');
    if (this.cached?.ids !== ids) this.cached = { ids, ring: new KeyRing(jwks) };
    return this.cached.ring;
  }
}

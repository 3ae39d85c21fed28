import * as ed from '@noble/ed25519';
import { sha256 as nobleSha256, sha512 } from '@noble/hashes/sha2';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import canonicalize from 'canonicalize';
import { base64url, concat, fromBase64url, hex, utf8 } from './encoding.js';
import { valueNestsDeeperThan } from './json.js';

/**
 * The cryptographic primitives of offline verification, from audited pure-JavaScript libraries
 * (no node: module), so the same code verifies in Node and in a browser.
 */

ed.hashes.sha512 ??= (message) => new Uint8Array(sha512(message));

export const sha256 = (data: Uint8Array): Uint8Array => nobleSha256(data);

/** `sha256:<64 lowercase hex>` of the UTF-8 bytes of `text`. */
export const sha256Wire = (text: string): string => `sha256:${hex(sha256(utf8(text)))}`;

/**
 * RFC 8785 (JCS) serialisation, or undefined for what JSON cannot represent or nests deeper than
 * MAX_JSON_DEPTH (the canonicaliser recurses once per level).
 */
export function jcs(value: unknown): string | undefined {
  if (valueNestsDeeperThan(value)) return undefined;
  try {
    return canonicalize(value);
  } catch {
    return undefined;
  }
}

/** RFC 8032 verification, strict (canonical encodings only), false for malformed input. */
export function ed25519Verify(
  signature: Uint8Array,
  message: Uint8Array,
  key: Uint8Array,
): boolean {
  if (signature.length !== 64 || key.length !== 32) return false;
  try {
    return ed.verify(signature, message, key, { zip215: false });
  } catch {
    return false;
  }
}

/** Sizes of an ML-DSA-44 public key and signature (FIPS 204 Table 2). */
export const ML_DSA_44_PUBLIC_KEY_SIZE = 1312;
export const ML_DSA_44_SIGNATURE_SIZE = 2420;

/**
 * FIPS 204 ML-DSA-44 verification (ML-DSA.Verify, the pure variant with an empty context), false
 * for input of the wrong length or encoding rather than an exception.
 */
export function mlDsa44Verify(
  signature: Uint8Array,
  message: Uint8Array,
  key: Uint8Array,
): boolean {
  if (signature.length !== ML_DSA_44_SIGNATURE_SIZE || key.length !== ML_DSA_44_PUBLIC_KEY_SIZE) {
    return false;
  }
  try {
    return ml_dsa44.verify(signature, message, key);
  } catch {
    return false;
  }
}

export interface Ed25519Jwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid?: string;
}

/** The raw 32-byte key of an Ed25519 JWK, or undefined when it is not one. */
export function jwkKey(jwk: unknown): Uint8Array | undefined {
  const k = jwk as Partial<Ed25519Jwk> | null;
  if (typeof k !== 'object' || k === null || k.kty !== 'OKP' || k.crv !== 'Ed25519')
    return undefined;
  const x = typeof k.x === 'string' ? fromBase64url(k.x) : undefined;
  return x?.length === 32 ? x : undefined;
}

/** RFC 7638 thumbprint of an Ed25519 key: base64url SHA-256 of `{"crv","kty","x"}` in JCS. */
export function jwkThumbprint(key: Uint8Array): string {
  const members = `{"crv":"Ed25519","kty":"OKP","x":"${base64url(key)}"}`;
  return base64url(sha256(utf8(members)));
}

/**
 * An ML-DSA-44 public key as a JWK: key type "AKP" (algorithm key pair) with "alg" "ML-DSA-44"
 * and "pub" the base64url raw 1312-byte key (draft-ietf-cose-dilithium, "ML-DSA for JOSE and
 * COSE").
 */
export interface MlDsa44Jwk {
  kty: 'AKP';
  alg: 'ML-DSA-44';
  pub: string;
  kid?: string;
}

/** The raw 1312-byte key of an ML-DSA-44 JWK, or undefined when it is not one. */
export function akpKey(jwk: unknown): Uint8Array | undefined {
  const k = jwk as Partial<MlDsa44Jwk> | null;
  if (typeof k !== 'object' || k === null || k.kty !== 'AKP' || k.alg !== 'ML-DSA-44') {
    return undefined;
  }
  const pub = typeof k.pub === 'string' ? fromBase64url(k.pub) : undefined;
  return pub?.length === ML_DSA_44_PUBLIC_KEY_SIZE ? pub : undefined;
}

/**
 * RFC 7638 thumbprint of an AKP key: base64url SHA-256 of `{"alg","kty","pub"}` in JCS (the
 * required members draft-ietf-cose-dilithium names for the thumbprint).
 */
export function akpThumbprint(key: Uint8Array): string {
  const members = `{"alg":"ML-DSA-44","kty":"AKP","pub":"${base64url(key)}"}`;
  return base64url(sha256(utf8(members)));
}

/** RFC 9162 §2.1.1 leaf hash: SHA-256(0x00 || leaf input). */
export const leafHash = (input: Uint8Array): Uint8Array => sha256(concat(Uint8Array.of(0), input));

/** RFC 9162 §2.1.1 interior node hash: SHA-256(0x01 || left || right). */
export const nodeHash = (left: Uint8Array, right: Uint8Array): Uint8Array =>
  sha256(concat(Uint8Array.of(1), left, right));

import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { z } from 'zod';

/**
 * SIM-ECDSA-v1 notary seals: an RFC 7515 compact JWS signed with ES256 (RFC 7518 §3.4: ECDSA
 * P-256 with SHA-256, signature = raw r||s, 64 bytes). The protected header is
 * `{"alg":"ES256","typ":"JWT"}`; the payload carries exactly the four claims of {@link SealClaims}.
 * The verification key always comes from the notary registry, never from the seal itself.
 */

export const SEAL_SCHEME = 'SIM-ECDSA-v1';

/** The claims of a seal. `docHash` is `sha256:<64 lowercase hex>`, `iat` is Unix seconds. */
export interface SealClaims {
  notaryId: string;
  commissionState: string;
  docHash: string;
  iat: number;
}

/** What `createSeal` needs: `iat` defaults to the current time. */
export type SealClaimsInput = Omit<SealClaims, 'iat'> & { iat?: number };

/**
 * Why a seal did not verify. Stable labels, shown in check details:
 * `malformed_seal` (not three base64url segments of JSON), `unsupported_header` (alg other than
 * ES256, typ other than JWT, or a `crit` parameter), `invalid_claims` (missing, extra or badly
 * formed claims), `invalid_public_key` (the registered key is not a P-256 public key),
 * `bad_signature` (signature does not verify under the registered key).
 */
export type SealFailureReason =
  | 'malformed_seal'
  | 'unsupported_header'
  | 'invalid_claims'
  | 'invalid_public_key'
  | 'bad_signature';

export type SealVerification =
  { ok: true; claims: SealClaims } | { ok: false; reason: SealFailureReason };

const HEADER = { alg: 'ES256', typ: 'JWT' } as const;
const P256 = 'prime256v1';
const SIGNATURE_BYTES = 64;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const Header = z.looseObject({
  alg: z.literal('ES256'),
  typ: z.literal('JWT').optional(),
  crit: z.never().optional(),
});

/** The latest `iat` a seal may carry: 9999-12-31T23:59:59Z, the end of the ISO 8601 range. */
const MAX_IAT = 253_402_300_799;

const Claims = z.strictObject({
  notaryId: z.string().min(1),
  commissionState: z.string().length(2),
  docHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  iat: z.number().int().nonnegative().max(MAX_IAT),
});

/** Why `createSeal` refused its input: a malformed claim or a key that is not P-256. */
export class SealInputError extends ServiceError<'seal_input_invalid'> {
  override name = 'SealInputError';
  constructor(message: string) {
    super('seal_input_invalid', message);
  }
}

/**
 * Sign `claims` with the notary's P-256 private key (PKCS#8 or SEC1 PEM) and return the compact
 * JWS. Throws SealInputError, with a message fit for an operator, on a malformed claim or a key
 * that is not a P-256 private key: bad input to a signing tool is an error, not a verdict.
 */
export function createSeal(claims: SealClaimsInput, privateKeyPem: string): string {
  const parsed = Claims.safeParse({ ...claims, iat: claims.iat ?? Math.floor(Date.now() / 1000) });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new SealInputError(`invalid seal claims: ${problems.join('; ')}`);
  }
  const key = privateKeyFrom(privateKeyPem);
  const signingInput = `${encodeJson(HEADER)}.${encodeJson(parsed.data)}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}

/**
 * Verify a compact JWS seal against the registered notary public key (SPKI PEM). Never throws:
 * every problem with the seal or the key is reported as `{ ok: false, reason }`.
 * Claim values are returned for the caller to compare with the request; this function does not
 * know the request.
 */
export function verifySeal(compact: string, publicKeyPem: string): SealVerification {
  const parts = typeof compact === 'string' ? compact.split('.') : [];
  if (parts.length !== 3) return { ok: false, reason: 'malformed_seal' };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJson(headerPart);
  const payload = decodeJson(payloadPart);
  const signature = decodeSegment(signaturePart);
  if (header === undefined || payload === undefined || signature === undefined) {
    return { ok: false, reason: 'malformed_seal' };
  }
  if (!Header.safeParse(header).success) return { ok: false, reason: 'unsupported_header' };
  const claims = Claims.safeParse(payload);
  if (!claims.success) return { ok: false, reason: 'invalid_claims' };
  const key = publicKeyFrom(publicKeyPem);
  if (key === undefined) return { ok: false, reason: 'invalid_public_key' };
  const valid = signatureValid(`${headerPart}.${payloadPart}`, signature, key);
  return valid ? { ok: true, claims: claims.data } : { ok: false, reason: 'bad_signature' };
}

function signatureValid(signingInput: string, signature: Buffer, key: KeyObject): boolean {
  if (signature.length !== SIGNATURE_BYTES) return false;
  try {
    const options = { key, dsaEncoding: 'ieee-p1363' as const };
    return verify('sha256', Buffer.from(signingInput), options, signature);
  } catch {
    return false;
  }
}

function isP256(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === P256;
}

function privateKeyFrom(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new SealInputError('seal key is not a readable PEM private key');
  }
  if (!isP256(key)) throw new SealInputError('seal key must be an ECDSA P-256 private key');
  return key;
}

/** Parsed notary keys by PEM text: parsing dominated the seal check. Bounded, cleared when full. */
const parsedKeys = new Map<string, KeyObject | undefined>();
const PARSED_KEYS_MAX = 1_000;

function publicKeyFrom(pem: string): KeyObject | undefined {
  if (parsedKeys.has(pem)) return parsedKeys.get(pem);
  let key: KeyObject | undefined;
  try {
    const parsed = createPublicKey(pem);
    key = isP256(parsed) ? parsed : undefined;
  } catch {
    key = undefined;
  }
  if (parsedKeys.size >= PARSED_KEYS_MAX) parsedKeys.clear();
  parsedKeys.set(pem, key);
  return key;
}

function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Strict base64url (RFC 7515 §2: no padding, no other characters). Decoding must round-trip,
 * so no two spellings of a segment are accepted.
 */
function decodeSegment(segment: string): Buffer | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}

function decodeJson(segment: string): unknown {
  const bytes = decodeSegment(segment);
  if (bytes === undefined || bytes.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

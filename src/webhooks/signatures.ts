import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import { jwkThumbprint } from '../receipts/signer.js';
import type { Scheme } from './events.js';

/**
 * The Standard Webhooks signatures: over `<webhook-id>.<webhook-timestamp>.<body>`, `v1` is
 * HMAC-SHA256 with the subscription's secret (`whsec_` + base64 of 32 random bytes), `v1a` is
 * Ed25519 with the service's webhook key (`whsk_` + base64 of its 32-byte RFC 8032 seed; the
 * public key `whpk_` + base64 of its 32 bytes). Each signature is base64 (with padding) after
 * its scheme and a comma; several are separated by spaces (the `webhook-signature` header).
 */

const SECRET_PREFIX = 'whsec_';
const SECRET_KEY_PREFIX = 'whsk_';
const PUBLIC_KEY_PREFIX = 'whpk_';

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key a `whsec_` secret stands for. */
function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(6) : secret, 'base64');
}

export function signedContent(id: string, timestamp: number, body: string): Buffer {
  return Buffer.from(`${id}.${timestamp}.${body}`, 'utf8');
}

/** The service's Ed25519 webhook key, as published (JWK and `whpk_`) and as used to sign. */
export interface WebhookKey {
  readonly kid: string;
  readonly publicJwk: {
    kty: 'OKP';
    crv: 'Ed25519';
    x: string;
    kid: string;
    alg: 'EdDSA';
    use: 'sig';
  };
  /** `whpk_` + base64 of the raw public key. */
  readonly whpk: string;
  sign(content: Uint8Array): Buffer;
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function keyOfSeed(seed: Buffer): WebhookKey {
  if (seed.length !== 32) throw new TypeError('an Ed25519 seed is 32 bytes');
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x as string;
  const kid = jwkThumbprint(x);
  return {
    kid,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
    whpk: PUBLIC_KEY_PREFIX + Buffer.from(x, 'base64url').toString('base64'),
    sign: (content) => sign(null, content, privateKey),
  };
}

/** A key given as `whsk_` + base64 of its seed (WEBHOOK_SIGNING_KEY). */
export function webhookKeyFromSecret(whsk: string): WebhookKey {
  if (!whsk.startsWith(SECRET_KEY_PREFIX)) throw new TypeError('a webhook key starts with whsk_');
  return keyOfSeed(Buffer.from(whsk.slice(SECRET_KEY_PREFIX.length), 'base64'));
}

/**
 * The webhook key derived from the receipt signing key (HKDF-SHA256 over its seed, with its own
 * label): every replica holding the signing key signs webhooks alike, and the two keys are
 * never the same, so a webhook signature can never pass for a receipt's or a checkpoint's.
 */
export function webhookKeyFromSigningKey(privateKeyPem: string): WebhookKey {
  const d = createPrivateKey(privateKeyPem).export({ format: 'jwk' }).d;
  if (typeof d !== 'string') throw new TypeError('the signing key must be Ed25519');
  const seed = Buffer.from(
    hkdfSync(
      'sha256',
      Buffer.from(d, 'base64url'),
      Buffer.alloc(0),
      'verification-receipts webhook v1a',
      32,
    ),
  );
  return keyOfSeed(seed);
}

/** The `webhook-signature` header: one signature per scheme the subscription asked for. */
export function signatureHeader(
  schemes: readonly Scheme[],
  content: Buffer,
  keys: { secret: string | null; webhookKey: WebhookKey | undefined },
): string {
  const parts: string[] = [];
  for (const scheme of schemes) {
    if (scheme === 'v1' && keys.secret) {
      const mac = createHmac('sha256', secretBytes(keys.secret)).update(content).digest('base64');
      parts.push(`v1,${mac}`);
    }
    if (scheme === 'v1a' && keys.webhookKey) {
      parts.push(`v1a,${keys.webhookKey.sign(content).toString('base64')}`);
    }
  }
  return parts.join(' ');
}

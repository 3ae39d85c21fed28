import { concat, fromBase64, utf8 } from './encoding.js';
import { ed25519Verify, jwkKey } from './primitives.js';

/**
 * Verifies a `v1a` webhook of the Standard Webhooks specification: an Ed25519 signature over
 * `<webhook-id>.<webhook-timestamp>.<body>` in the `webhook-signature` header, under a key the
 * receiver pinned (the service's `/.well-known/webhook-jwks.json`, or its `whpk_` form), with a
 * timestamp within `toleranceSeconds` of now (replays of old deliveries are refused). The body
 * must be the bytes received, before any JSON parsing. Throws WebhookVerificationError; returns
 * the id (the receiver's deduplication key), the timestamp and the parsed body.
 */

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** The specification's default tolerance (and the `standardwebhooks` package's). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Larger bodies are refused unread; the service never sends one over 20 KB. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
/** At most this many signatures in the header are looked at. */
const MAX_SIGNATURES = 8;

export interface WebhookVerifyOptions {
  /** The raw body as received. */
  body: string | Uint8Array;
  /** The request's headers (any case); arrays take their first value. */
  headers: Record<string, string | string[] | undefined>;
  /** A JWK Set (`{ keys: [...] }`), one Ed25519 JWK, or `whpk_` strings. */
  keys: unknown;
  now?: Date;
  toleranceSeconds?: number;
}

export interface VerifiedWebhook {
  id: string;
  timestamp: number;
  payload: unknown;
}

const PUBLIC_KEY_PREFIX = 'whpk_';

function keysOf(keys: unknown): Uint8Array[] {
  const list = Array.isArray(keys)
    ? keys
    : typeof keys === 'object' && keys !== null && Array.isArray((keys as { keys?: unknown }).keys)
      ? (keys as { keys: unknown[] }).keys
      : [keys];
  const out: Uint8Array[] = [];
  for (const k of list) {
    const raw =
      typeof k === 'string' && k.startsWith(PUBLIC_KEY_PREFIX)
        ? fromBase64(k.slice(PUBLIC_KEY_PREFIX.length))
        : jwkKey(k);
    if (raw?.length === 32) out.push(raw);
  }
  return out;
}

function header(headers: WebhookVerifyOptions['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

export function verifyWebhook(options: WebhookVerifyOptions): VerifiedWebhook {
  const keys = keysOf(options.keys);
  if (keys.length === 0) throw new WebhookVerificationError('no Ed25519 key to verify with');
  const body = typeof options.body === 'string' ? utf8(options.body) : options.body;
  if (body.length > MAX_WEBHOOK_BODY_BYTES) throw new WebhookVerificationError('body too large');
  const id = header(options.headers, 'webhook-id');
  const stamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !stamp || !signatures || id.length > 256 || signatures.length > 4_096)
    throw new WebhookVerificationError('missing or oversized webhook headers');
  if (id.includes('.')) throw new WebhookVerificationError('a webhook-id may not contain "."');
  if (!/^\d{1,12}$/.test(stamp)) throw new WebhookVerificationError('bad webhook-timestamp');
  const timestamp = Number(stamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (now - timestamp > tolerance) throw new WebhookVerificationError('timestamp too old');
  if (timestamp - now > tolerance) throw new WebhookVerificationError('timestamp too new');
  const content = concat(utf8(`${id}.${stamp}.`), body);
  const candidates = signatures.split(' ').slice(0, MAX_SIGNATURES);
  for (const candidate of candidates) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1a' || !value) continue;
    const signature = fromBase64(value);
    if (!signature || signature.length !== 64) continue;
    if (keys.some((key) => ed25519Verify(signature, content, key)))
      return { id, timestamp, payload: parsed(body) };
  }
  throw new WebhookVerificationError('no v1a signature verifies under the pinned keys');
}

/** The body as JSON (it is parsed only once its signature verified). */
function parsed(body: Uint8Array): unknown {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    throw new WebhookVerificationError('the signed body is not UTF-8 JSON');
  }
}

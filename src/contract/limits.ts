import { z } from 'zod';

/**
 * Size limits of request data (the spec leaves them open). Every string of every
 * request body and validated header has a maximum length and every array a maximum count, so
 * one field cannot make one request use unbounded memory or CPU. Over a limit is 400
 * `validation_failed` naming the path and the limit. The "Limits" table of docs/api.md lists these.
 */
export const LIMITS = {
  /** Identifiers: bundleId, notaryId, parcelId, externalId, headSha, a revoker's x-issuer-id. */
  id: 256,
  /** Short names: provider, county, transaction type, person names, event names, kinds. */
  name: 512,
  /** Free text: addresses, CI summaries. */
  text: 4096,
  /** Policy profile names. */
  profile: 64,
  /** The notary seal payload (SIM-ECDSA-v1 is a few hundred characters). */
  sealPayload: 8192,
  /** URLs a client supplies (detailsUrl, htmlUrl). */
  url: 2048,
  /** Registry screening source ids per request. */
  sourceIds: 50,
  /** Revocation headers: timestamp and the base64url Ed25519 signature (86 characters). */
  timestamp: 64,
  signature: 128,
  /** The RFC 7240 Prefer header (a few preferences). */
  prefer: 1024,
  /**
   * Levels of arrays and objects a JSON body may nest: the deepest request is 4; checked on the
   * raw text before it is parsed, so a body of nested brackets costs one short scan.
   */
  jsonDepth: 64,
  /**
   * Webhook subscriptions a tenant may hold: each event it records is one delivery per
   * subscription, written in the transaction of the change it reports.
   */
  webhookSubscriptions: 20,
} as const;

/** A string of at most `max` characters (and at least `min`). */
export function bounded(max: number, min = 0): z.ZodString {
  const s = z.string().max(max);
  return min > 0 ? s.min(min) : s;
}

/** An absolute http(s) URL of at most LIMITS.url characters: no javascript:, data: or file:. */
export const HttpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
  .max(LIMITS.url);

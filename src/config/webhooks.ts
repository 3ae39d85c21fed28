import { parseCidr } from '../webhooks/addresses.js';
import type { Env } from './env-schema.js';
import { ConfigError } from './error.js';

/** How webhooks are delivered (docs/configuration.md, "Webhooks"). */
export interface WebhooksConfig {
  /** How often this process looks for due deliveries; 0: it sends none (another replica does). */
  intervalMs: number;
  /** The whole of one attempt: connection, request and answer's status. */
  timeoutMs: number;
  /** CIDRs a target may resolve into although private, loopback or link-local. */
  allowedNetworks: string[];
  /** The v1a key (`whsk_...`); undefined: derived from the receipt signing key. */
  signingKey: string | undefined;
}

export function webhooksOf(e: Env): WebhooksConfig {
  const allowedNetworks = (e.WEBHOOK_ALLOWED_NETWORKS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const cidr of allowedNetworks) {
    try {
      parseCidr(cidr);
    } catch {
      throw new ConfigError(`WEBHOOK_ALLOWED_NETWORKS: "${cidr.slice(0, 100)}" is not a CIDR`);
    }
  }
  const key = e.WEBHOOK_SIGNING_KEY;
  if (key !== undefined && !/^whsk_[A-Za-z0-9+/]{43}=$/.test(key))
    throw new ConfigError('WEBHOOK_SIGNING_KEY must be whsk_ and the base64 of a 32-byte seed');
  return {
    intervalMs: e.WEBHOOK_DELIVERY_INTERVAL_MS,
    timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    allowedNetworks,
    signingKey: key,
  };
}

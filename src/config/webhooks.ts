import { parseCidr } from '../webhooks/addresses.js';
import type { Env } from './env-schema.js';
import { ConfigError } from './error.js';

/**
 * The longest attempt: the specification recommends 15 to 30 s, and a delivery's lease (the
 * timeout and 30 s) must end before a slow receiver could tie up a dispatcher for long.
 */
const MAX_TIMEOUT_MS = 120_000;

/** How webhooks are delivered (docs/configuration.md, "Webhooks"). */
export interface WebhooksConfig {
  /**
   * The least time between two of this process's delivery rounds, and how often it looks while
   * the store's notices are down; 0: it sends none (another replica does).
   */
  intervalMs: number;
  /** The whole of one attempt: resolving the name, connecting, sending, the answer's status. */
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
  if (e.WEBHOOK_TIMEOUT_MS > MAX_TIMEOUT_MS)
    throw new ConfigError(`WEBHOOK_TIMEOUT_MS must be at most ${MAX_TIMEOUT_MS}`);
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

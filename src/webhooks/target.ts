import { lookup as dnsLookup } from 'node:dns/promises';
import {
  addressBytes,
  allowedBy,
  isLoopback,
  parseCidr,
  refusedRange,
  type NetworkRange,
} from './addresses.js';

/**
 * Where a webhook may go. A target is an https URL (http only to a loopback address the operator
 * allows, for development) without credentials, whose name resolves only to addresses that are
 * public or in the operator's WEBHOOK_ALLOWED_NETWORKS. The check answers the address it
 * checked: the sender connects to that address, never asking the resolver again (a name that
 * resolves to a public address for the check and to a private one for the request gains nothing).
 * A name that does not resolve within the time given is refused: a slow name server holds
 * neither a subscription's request nor a delivery's lease.
 */

/** The longest target URL a subscription may name. */
export const MAX_URL_LENGTH = 2_048;

/** How long a subscription's name may take to resolve (a delivery gives its own timeout). */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address of the name. */
export const systemResolver: Resolver = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

export class TargetRefused extends Error {}

export interface CheckedTarget {
  url: URL;
  /** The address checked, which the request connects to. */
  address: string;
  family: 4 | 6;
}

export class TargetPolicy {
  private readonly allowed: NetworkRange[];

  constructor(
    allowedNetworks: readonly string[],
    private readonly resolve: Resolver = systemResolver,
    /** How long a name may take to resolve when check() is given no time of its own. */
    private readonly resolveTimeoutMs = DEFAULT_RESOLVE_TIMEOUT_MS,
  ) {
    this.allowed = allowedNetworks.map((cidr) => parseCidr(cidr));
  }

  /** The URL's form alone: scheme, credentials, length (what a subscription is refused for). */
  parse(text: string): URL {
    if (text.length > MAX_URL_LENGTH) throw new TargetRefused('the URL is too long');
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new TargetRefused('not an absolute URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new TargetRefused('the URL must be https');
    if (url.username || url.password) throw new TargetRefused('the URL may not carry credentials');
    if (url.hash) throw new TargetRefused('the URL may not carry a fragment');
    return url;
  }

  /**
   * Resolves the target (within `timeoutMs`) and checks every address it resolves to; the first
   * one is used.
   */
  async check(text: string, timeoutMs = this.resolveTimeoutMs): Promise<CheckedTarget> {
    const url = this.parse(text);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = addressBytes(host);
    const answers = literal
      ? [{ address: host, family: literal.length === 4 ? 4 : 6 }]
      : await this.resolveWithin(host, timeoutMs);
    if (answers.length === 0) throw new TargetRefused(`the name ${host} does not resolve`);
    for (const answer of answers) this.judge(url, answer.address);
    const [first] = answers;
    return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
  }

  private async resolveWithin(host: string, timeoutMs: number) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new TargetRefused(`the name ${host} did not resolve within ${timeoutMs} ms`)),
        Math.max(0, timeoutMs),
      );
    });
    const answers = this.resolve(host).catch(() => {
      throw new TargetRefused(`the name ${host} does not resolve`);
    });
    try {
      return await Promise.race([answers, late]);
    } finally {
      clearTimeout(timer);
      answers.catch(() => undefined);
    }
  }

  private judge(url: URL, address: string): void {
    const bytes = addressBytes(address);
    if (!bytes) throw new TargetRefused(`${url.hostname} resolves to ${address}`);
    const allowed = allowedBy(bytes, this.allowed);
    const refused = refusedRange(bytes);
    if (refused && !allowed)
      throw new TargetRefused(
        `${url.hostname} resolves to ${address} (${refused}), which webhooks may not reach`,
      );
    if (url.protocol === 'http:' && !(allowed && isLoopback(bytes)))
      throw new TargetRefused(
        'the URL must be https (http only to a loopback address the operator allows)',
      );
  }
}

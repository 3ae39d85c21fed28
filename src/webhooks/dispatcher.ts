import { randomInt } from 'node:crypto';
import type { ReceiptLinks } from '../receipts/ports.js';
import { bodyOf, PayloadTooLarge, type ReceiptFacts } from './payloads.js';
import type { AttemptRecord, ClaimedDelivery, InFlightCaps, WebhookStore } from './ports.js';
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_AFTER_STATUSES, retryAfterMs } from './schedule.js';
import type { Send, SendResult } from './sender.js';
import { signatureHeader, signedContent, type WebhookKey } from './signatures.js';
import { TargetRefused, type TargetPolicy } from './target.js';

/**
 * Sends the outbox's deliveries, at least once each. A delivery is leased before it is sent
 * (the store's conditional update gives each to one replica), sent with a stable `webhook-id`
 * (the event's id) and a fresh `webhook-timestamp`, and its outcome recorded by the lease holder
 * alone: 2xx delivered, 410 Gone disables the subscription, anything else is tried again on the
 * schedule (schedule.ts, a 429 or 503's `Retry-After` within its bounds) until its attempts run
 * out. One timeout bounds the whole attempt, the name's resolution included, so an attempt ends
 * before its lease does. Nothing is sent for a disabled subscription (a delivery recorded while
 * it was being disabled fails unsent), nor a body over 20 KB (it fails at once).
 *
 * Each attempt stands alone: it is claimed, sent and recorded under its own lease, and nothing
 * waits for another attempt (dispatch-loop.ts keeps up to `slots` of them open, claiming more as
 * they end). A claim leaves out the deliveries of a subscription or tenant that already has its
 * cap of attempts open (`caps`, across every replica), so a receiver that never answers holds
 * only its own share of the slots until its attempts time out.
 */

/**
 * A subscription holds at most a quarter of a dispatcher's slots, a tenant (up to 20
 * subscriptions) at most half of them: the rest stay free for the other tenants.
 */
export const IN_FLIGHT_CAPS: InFlightCaps = { perSubscription: 8, perTenant: 16 };

export interface DispatcherLog {
  warn(details: object, message: string): void;
}

export interface DispatcherDeps {
  store: WebhookStore;
  facts: ReceiptFacts;
  links: ReceiptLinks;
  targets: TargetPolicy;
  send: Send;
  /** The v1a key; undefined when signing is disabled (v1a subscriptions then get v1 only). */
  webhookKey: WebhookKey | undefined;
  /** One attempt, from resolving the target's name to the answer's status (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** How long a claim holds a delivery: longer than one attempt's timeout. */
  leaseMs: number;
  /** Attempts open at once: the most one claim leases, and the dispatch loop keeps open. */
  slots: number;
  /** Attempts open at once per subscription and per tenant; IN_FLIGHT_CAPS unless given. */
  caps?: InFlightCaps;
  clock?: () => Date;
  /** In [0, 1): the retry delays' jitter. */
  random?: () => number;
  /** Told each attempt's outcome (metrics). */
  onAttempt?: (outcome: AttemptRecord['outcome']) => void;
  log?: DispatcherLog;
}

export class WebhookDispatcher {
  private readonly clock: () => Date;
  private readonly random: () => number;
  private readonly caps: InFlightCaps;

  constructor(private readonly deps: DispatcherDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.random = deps.random ?? (() => randomInt(1_000_000) / 1_000_000);
    this.caps = deps.caps ?? IN_FLIGHT_CAPS;
  }

  /** Attempts open at once. */
  get slots(): number {
    return this.deps.slots;
  }

  /** Leases up to `limit` due deliveries (within the caps), each for its own attempt. */
  claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock();
    return this.deps.store.claimDue(
      now,
      new Date(now.getTime() + this.deps.leaseMs),
      limit,
      this.caps,
    );
  }

  /** Claims up to `slots` due deliveries and attempts each, waiting for all; how many. */
  async runOnce(): Promise<number> {
    const claims = await this.claim(this.deps.slots);
    await Promise.all(claims.map((claim) => this.attempt(claim)));
    return claims.length;
  }

  /** When the next delivery may be claimed (due, its lease free); null when none is pending. */
  nextDue(): Promise<Date | null> {
    return this.deps.store.nextDue(this.clock(), this.caps);
  }

  /** Sends a claimed delivery and records the outcome under its lease; never rejects. */
  async attempt(claim: ClaimedDelivery): Promise<void> {
    const record = await this.deliver(claim).catch((err: unknown): AttemptRecord => {
      if (err instanceof PayloadTooLarge) return this.givenUp(messageOf(err));
      return this.failure(claim, { status: undefined, error: messageOf(err) });
    });
    const kept = await this.deps.store.recordAttempt(claim, record).catch((err: unknown) => {
      // the lease expires and the delivery is tried again: at least once, never lost
      this.deps.log?.warn({ err, delivery: claim.delivery.id }, 'webhook outcome not recorded');
      return undefined;
    });
    if (kept === false)
      this.deps.log?.warn({ delivery: claim.delivery.id }, 'webhook lease lost: outcome dropped');
    if (kept) this.deps.onAttempt?.(record.outcome);
  }

  private async deliver(claim: ClaimedDelivery): Promise<AttemptRecord> {
    const { event, subscription } = claim;
    if (subscription.disabledAt)
      return this.givenUp(
        `not sent: the subscription is disabled (${subscription.disabledReason ?? 'disabled'})`,
      );
    const body =
      event.body ??
      (await this.deps.store.keepBody(
        event.id,
        await bodyOf(event, this.deps.facts, this.deps.links),
      ));
    const started = performance.now();
    const target = await this.deps.targets
      .check(subscription.url, this.deps.timeoutMs)
      .catch((err: unknown) => {
        if (err instanceof TargetRefused) throw err;
        throw new TargetRefused(messageOf(err));
      });
    const left = Math.floor(this.deps.timeoutMs - (performance.now() - started));
    if (left <= 0) throw new TargetRefused(`no answer within ${this.deps.timeoutMs} ms`);
    const timestamp = Math.floor(this.clock().getTime() / 1000);
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(
        subscription.schemes,
        signedContent(event.id, timestamp, body),
        { secret: subscription.secret, webhookKey: this.deps.webhookKey },
      ),
    };
    const result = await this.deps.send(target, headers, body, left);
    const { status } = result;
    if (status !== undefined && status >= 200 && status < 300)
      return { at: this.clock(), outcome: 'delivered', status, error: null, nextAttemptAt: null };
    if (status === 410)
      return {
        at: this.clock(),
        outcome: 'gone',
        status,
        error: 'answered 410 Gone',
        nextAttemptAt: null,
      };
    return this.failure(claim, result);
  }

  /**
   * A failed attempt: tried again on the schedule (later if a 429 or 503 asked so by its
   * `Retry-After`), or failed for good once attempts run out.
   */
  private failure(claim: ClaimedDelivery, result: SendResult): AttemptRecord {
    const at = this.clock();
    const attempts = claim.delivery.attempts + 1;
    const { status } = result;
    const asked =
      status !== undefined && RETRY_AFTER_STATUSES.has(status)
        ? retryAfterMs(result.retryAfter, at)
        : undefined;
    const next = attempts < MAX_ATTEMPTS ? nextAttemptAt(attempts, at, this.random(), asked) : null;
    return {
      at,
      outcome: next ? 'retry' : 'failed',
      status: status ?? null,
      error: (result.error ?? `answered ${status}`).slice(0, 512),
      nextAttemptAt: next,
    };
  }

  /** A delivery that no attempt could send: failed at once, nothing sent. */
  private givenUp(error: string): AttemptRecord {
    return {
      at: this.clock(),
      outcome: 'failed',
      status: null,
      error: error.slice(0, 512),
      nextAttemptAt: null,
    };
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

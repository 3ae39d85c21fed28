import { randomInt } from 'node:crypto';
import type { ReceiptLinks } from '../receipts/ports.js';
import { bodyOf, type ReceiptFacts } from './payloads.js';
import type { AttemptRecord, ClaimedDelivery, WebhookStore } from './ports.js';
import { MAX_ATTEMPTS, nextAttemptAt } from './schedule.js';
import type { Send } from './sender.js';
import { signatureHeader, signedContent, type WebhookKey } from './signatures.js';
import { TargetRefused, type TargetPolicy } from './target.js';

/**
 * Sends the outbox's deliveries, at least once each. A delivery is leased before it is sent
 * (the store's conditional update gives each to one replica), sent with a stable `webhook-id`
 * (the event's id) and a fresh `webhook-timestamp`, and its outcome recorded by the lease holder
 * alone: 2xx delivered, 410 Gone disables the subscription, anything else is tried again on the
 * schedule (schedule.ts) until its attempts run out.
 */

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
  /** How long a claim holds a delivery: longer than one attempt's timeout. */
  leaseMs: number;
  /** Deliveries claimed (and sent concurrently) at a time. */
  batch: number;
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

  constructor(private readonly deps: DispatcherDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.random = deps.random ?? (() => randomInt(1_000_000) / 1_000_000);
  }

  /** Claims one batch of due deliveries and attempts each; how many were claimed. */
  async runOnce(): Promise<number> {
    const now = this.clock();
    const claims = await this.deps.store.claimDue(
      now,
      new Date(now.getTime() + this.deps.leaseMs),
      this.deps.batch,
    );
    await Promise.all(claims.map((claim) => this.attempt(claim)));
    return claims.length;
  }

  private async attempt(claim: ClaimedDelivery): Promise<void> {
    const record = await this.deliver(claim).catch((err: unknown): AttemptRecord =>
      this.failure(claim, undefined, messageOf(err)),
    );
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
    const body =
      event.body ??
      (await this.deps.store.keepBody(
        event.id,
        await bodyOf(event, this.deps.facts, this.deps.links),
      ));
    const target = await this.deps.targets.check(subscription.url).catch((err: unknown) => {
      if (err instanceof TargetRefused) throw err;
      throw new TargetRefused(messageOf(err));
    });
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
    const result = await this.deps.send(target, headers, body);
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
    return this.failure(claim, status, result.error ?? `answered ${status}`);
  }

  /** A failed attempt: tried again on the schedule, or failed for good once attempts run out. */
  private failure(
    claim: ClaimedDelivery,
    status: number | undefined,
    error: string,
  ): AttemptRecord {
    const at = this.clock();
    const attempts = claim.delivery.attempts + 1;
    const next = attempts < MAX_ATTEMPTS ? nextAttemptAt(attempts, at, this.random()) : null;
    return {
      at,
      outcome: next ? 'retry' : 'failed',
      status: status ?? null,
      error: error.slice(0, 512),
      nextAttemptAt: next,
    };
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface RunningDispatcher {
  stop(): Promise<void>;
}

/**
 * Runs the dispatcher every `intervalMs`, and again at once while it finds a full batch; stops
 * (waiting for the attempts under way) when the app closes.
 */
export function startDispatcher(
  dispatcher: WebhookDispatcher,
  intervalMs: number,
  batch: number,
  log: DispatcherLog,
): RunningDispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const round = async () => {
    try {
      while (!stopped && (await dispatcher.runOnce()) >= batch);
    } catch (err) {
      log.warn({ err }, 'webhook deliveries could not be read: trying again');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

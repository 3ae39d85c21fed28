import type { DispatcherLog, WebhookDispatcher } from './dispatcher.js';
import type { ClaimedDelivery, DeliveryNotices } from './ports.js';

/**
 * Runs the dispatcher while the app does: up to its `slots` attempts open at once, each on its
 * own (docs/decisions/0090-attempts-are-independent-and-capped-per-receiver.md), and nothing
 * sent to the store while nothing is pending
 * (docs/decisions/0087-the-dispatcher-sleeps-until-a-delivery-is-due.md).
 *
 * A round claims as many due deliveries as there are free slots and starts their attempts
 * without waiting for them; while claims come back full it claims again. Each attempt's end
 * starts a round at once: its slot is free, and the subscription's or tenant's cap it held may
 * let a held-back delivery go, which no notice would announce (a delivery recorded delivered
 * notifies nothing). Once a claim comes back short, the round asks the store when the next
 * delivery falls due (a retry's time, a lease's end) and sleeps until then, or for good when
 * none is pending and nothing is in flight. The store's delivery notices (a delivery recorded,
 * redelivered or rescheduled, by any replica) wake it too, no sooner than `intervalMs` after the
 * last round's start, so a stream of new events costs a round per interval, not one each. While
 * the notices are not live (the LISTEN connection is down) it looks every `intervalMs`, as it
 * does after a failed round.
 *
 * `stop` claims nothing more and waits for the attempts in flight, each bounded by the
 * attempt's timeout, so their outcomes are recorded before the store closes.
 */

export interface RunningDispatcher {
  stop(): Promise<void>;
}

export interface DispatchLoopOptions {
  /**
   * The least time between the start of a round and that of one woken by a notice (or a timer),
   * and the polling interval while the notices are not live.
   */
  intervalMs: number;
  notices: DeliveryNotices;
  log: DispatcherLog;
}

/** setTimeout's longest delay; a later due time is slept towards in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export function startDispatcher(
  dispatcher: WebhookDispatcher,
  options: DispatchLoopOptions,
): RunningDispatcher {
  return new DispatchLoop(dispatcher, options);
}

class DispatchLoop implements RunningDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (performance.now()). */
  private timerAt = Infinity;
  private running: Promise<void> | undefined;
  /** What came during the round, which may have missed it: a notice, or an attempt's end. */
  private woken: 'gapped' | 'now' | undefined;
  /** The last claim got all it asked for: more may be due at once. */
  private full = false;
  private lastStart = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly options: DispatchLoopOptions,
  ) {
    this.unsubscribe = options.notices.subscribe(() => this.wake(true));
    this.schedule(0, false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    clearTimeout(this.timer);
    await this.running;
    await Promise.all(this.inFlight);
  }

  /** One round; when the next should start (ms from now), or undefined: when woken. */
  private async round(): Promise<number | undefined> {
    const { dispatcher, inFlight } = this;
    this.lastStart = performance.now();
    this.woken = undefined;
    try {
      while (!this.stopped && inFlight.size < dispatcher.slots) {
        const asked = dispatcher.slots - inFlight.size;
        const claims = await dispatcher.claim(asked);
        for (const claim of claims) this.launch(claim);
        this.full = claims.length === asked;
        if (!this.full) break;
      }
      // every slot busy, or more due: an attempt's end starts the next round
      if (this.stopped || this.full || inFlight.size >= dispatcher.slots) return undefined;
      if (!this.options.notices.live) return this.options.intervalMs;
      const due = await dispatcher.nextDue();
      return due ? Math.max(0, due.getTime() - Date.now()) : undefined;
    } catch (err) {
      this.options.log.warn({ err }, 'webhook deliveries could not be read: trying again');
      return this.options.intervalMs;
    }
  }

  /** Starts the claimed delivery's attempt, which wakes the loop when it ends. */
  private launch(claim: ClaimedDelivery): void {
    const attempt = this.dispatcher
      .attempt(claim)
      .catch((err: unknown) => this.options.log.warn({ err }, 'webhook attempt failed'))
      .finally(() => {
        this.inFlight.delete(attempt);
        this.wake(false);
      });
    this.inFlight.add(attempt);
  }

  /**
   * Starts a round `delayMs` from now (if `gapped`, no sooner than `intervalMs` after the last
   * round's start), unless one is already set to start sooner.
   */
  private schedule(delayMs: number, gapped: boolean): void {
    if (this.stopped) return;
    const now = performance.now();
    const at = Math.max(now + delayMs, gapped ? this.lastStart + this.options.intervalMs : 0);
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.start(), Math.min(Math.max(0, at - now), MAX_TIMER_MS));
    this.timer.unref();
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private start(): void {
    this.clearTimer();
    if (this.stopped || this.running) return;
    this.running = this.round().then((next) => {
      this.running = undefined;
      // the round's answer replaces whatever start was set before it
      this.clearTimer();
      if (this.woken) this.schedule(0, this.woken === 'gapped' && !this.full);
      else if (next !== undefined) this.schedule(next, true);
    });
  }

  /** Something may be claimable: a round now, or (`gapped`) within the interval's bound. */
  private wake(gapped: boolean): void {
    if (this.stopped) return;
    if (this.running) this.woken = this.woken === 'now' || !gapped ? 'now' : 'gapped';
    else this.schedule(0, gapped);
  }
}

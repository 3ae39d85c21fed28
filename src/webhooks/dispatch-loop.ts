import type { DispatcherLog, WebhookDispatcher } from './dispatcher.js';
import type { ClaimedDelivery, DeliveryNotices } from './ports.js';

/**
 * Runs the dispatcher while the app does: up to its `slots` attempts open at once, each on its
 * own (docs/decisions/0090-attempts-are-independent-and-capped-per-receiver.md), and nothing
 * sent to the store while nothing is pending
 * (docs/decisions/0087-the-dispatcher-sleeps-until-a-delivery-is-due.md).
 *
 * A round claims as many due deliveries as there are free slots and starts their attempts
 * without waiting for them. While claims come back full (more may be due), each attempt's end
 * starts another round at once, for its freed slot. Once a claim comes back short, the round
 * asks the store when the next delivery falls due (a retry's time, a lease's end) and sleeps
 * until then, or for good when none is pending; an attempt's end then starts a round no sooner
 * than `intervalMs` after the last (its slot, or the cap it held, may let a held-back delivery
 * go). The store's delivery notices (a delivery recorded, redelivered or rescheduled, by any
 * replica) wake it too. While the notices are not live (the LISTEN connection is down) it looks
 * every `intervalMs`, as it does after a failed round.
 *
 * `stop` claims nothing more and waits for the attempts in flight, each bounded by the
 * attempt's timeout, so their outcomes are recorded before the store closes.
 */

export interface RunningDispatcher {
  stop(): Promise<void>;
}

export interface DispatchLoopOptions {
  /**
   * The least time between two rounds' starts, but for those that take over a full claim's
   * freed slots; and the polling interval while the notices are not live.
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
  const { intervalMs, notices, log } = options;
  const slots = dispatcher.slots;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** When the timer fires (performance.now()). */
  let timerAt = Infinity;
  let running: Promise<void> | undefined;
  /** A notice or an attempt's end came during the round: it may have missed something. */
  let woken = false;
  /** The last claim got all it asked for: more may be due at once. */
  let full = false;
  let lastStart = 0;

  const launch = (claim: ClaimedDelivery) => {
    const attempt = dispatcher
      .attempt(claim)
      .catch((err: unknown) => log.warn({ err }, 'webhook attempt failed'))
      .finally(() => {
        inFlight.delete(attempt);
        wake(!full);
      });
    inFlight.add(attempt);
  };

  /** One round; when the next should start (ms from now), or undefined: when woken. */
  const round = async (): Promise<number | undefined> => {
    lastStart = performance.now();
    woken = false;
    try {
      while (!stopped && inFlight.size < slots) {
        const asked = slots - inFlight.size;
        const claims = await dispatcher.claim(asked);
        for (const claim of claims) launch(claim);
        full = claims.length === asked;
        if (!full) break;
      }
      // every slot busy, or more due: an attempt's end starts the next round
      if (stopped || full || inFlight.size >= slots) return undefined;
      if (!notices.live) return intervalMs;
      const due = await dispatcher.nextDue();
      return due ? Math.max(0, due.getTime() - Date.now()) : undefined;
    } catch (err) {
      log.warn({ err }, 'webhook deliveries could not be read: trying again');
      return intervalMs;
    }
  };

  /**
   * Starts a round `delayMs` from now (if `gapped`, no sooner than `intervalMs` after the last
   * round's start), unless one is already set to start sooner.
   */
  const schedule = (delayMs: number, gapped: boolean) => {
    if (stopped) return;
    const now = performance.now();
    const at = Math.max(now + delayMs, gapped ? lastStart + intervalMs : 0);
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(start, Math.min(Math.max(0, at - now), MAX_TIMER_MS));
    timer.unref();
  };

  const start = () => {
    timer = undefined;
    timerAt = Infinity;
    if (stopped || running) return;
    running = round().then((next) => {
      running = undefined;
      // the round's answer replaces whatever start was set before it
      clearTimeout(timer);
      timer = undefined;
      timerAt = Infinity;
      if (woken) schedule(0, !full);
      else if (next !== undefined) schedule(next, true);
    });
  };

  /** Something may be claimable: a round now, or (`gapped`) within the interval's bound. */
  const wake = (gapped: boolean) => {
    if (stopped) return;
    if (running) woken = true;
    else schedule(0, gapped);
  };

  const unsubscribe = notices.subscribe(() => wake(true));
  schedule(0, false);

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await running;
      await Promise.all(inFlight);
    },
  };
}

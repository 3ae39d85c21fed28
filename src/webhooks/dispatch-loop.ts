import type { DispatcherLog, WebhookDispatcher } from './dispatcher.js';
import type { DeliveryNotices } from './ports.js';

/**
 * Runs the dispatcher while the app does, sending the store nothing while nothing is pending
 * (docs/decisions/0087-the-dispatcher-sleeps-until-a-delivery-is-due.md). A round claims and
 * sends batches while it finds full ones, then asks the store when the next delivery falls due
 * (a retry's time, or a lease's end) and sleeps until then, or for good when none is pending.
 * The store's delivery notices (a delivery recorded, redelivered or rescheduled, by any replica)
 * wake it. Rounds start at most once per `intervalMs`; while the notices are not live (the
 * LISTEN connection is down) it looks every `intervalMs`, as it does after a failed round.
 */

export interface RunningDispatcher {
  stop(): Promise<void>;
}

export interface DispatchLoopOptions {
  /** The least time between two rounds' starts, and the polling interval without notices. */
  intervalMs: number;
  /** A round goes on at once while it claims this many (a full batch). */
  batch: number;
  notices: DeliveryNotices;
  log: DispatcherLog;
}

/** setTimeout's longest delay; a later due time is slept towards in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export function startDispatcher(
  dispatcher: WebhookDispatcher,
  options: DispatchLoopOptions,
): RunningDispatcher {
  const { intervalMs, batch, notices, log } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** A notice came during the round: something may be due that the round did not see. */
  let woken = false;
  let lastStart = 0;

  /** One round; when the next should start (ms from now), or undefined: when woken. */
  const round = async (): Promise<number | undefined> => {
    lastStart = performance.now();
    woken = false;
    try {
      while (!stopped && (await dispatcher.runOnce()) >= batch);
      if (!notices.live) return intervalMs;
      const due = await dispatcher.nextDue();
      return due ? Math.max(0, due.getTime() - Date.now()) : undefined;
    } catch (err) {
      log.warn({ err }, 'webhook deliveries could not be read: trying again');
      return intervalMs;
    }
  };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    clearTimeout(timer);
    const gap = Math.max(delayMs, lastStart + intervalMs - performance.now());
    timer = setTimeout(start, Math.min(Math.max(0, gap), MAX_TIMER_MS));
    timer.unref();
  };

  const start = () => {
    if (stopped || running) return;
    running = round().then((next) => {
      running = undefined;
      if (woken) schedule(0);
      else if (next !== undefined) schedule(next);
    });
  };

  const unsubscribe = notices.subscribe(() => {
    if (stopped) return;
    if (running) woken = true;
    else schedule(0);
  });
  schedule(0);

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await running;
    },
  };
}

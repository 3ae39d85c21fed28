import type { SealNotices } from './ports.js';

/**
 * How often waiters look for themselves while notices may be missed (the store's listener is
 * down): one read for all of them per interval, never one per waiter.
 */
export const FALLBACK_POLL_MS = 1_000;

/**
 * What a waiter waits for: `sealed`, its receipt's entry in a signed checkpoint; `witnessed`, in
 * a checkpoint cosigned by the log policy's witness quorum. Each condition has its own source of
 * notices (seals; stored cosignatures) and its own batched read.
 */
export type WaitCondition = 'sealed' | 'witnessed';

/** Where a condition's news comes from, and the one read that says for which receipts it holds. */
export interface WaitSource {
  notices: SealNotices;
  /** Those of these receipts for which the condition may hold now (one store read for all). */
  probe(receiptIds: readonly string[]): Promise<ReadonlySet<string>>;
}

/** One look of a waiter: whether it is over, and its answer so far (given when time runs out). */
export interface Attempt<T> {
  done: boolean;
  value: T;
}

interface Waiter {
  receiptId: string;
  /** A wake that came while the waiter was looking: it looks once more before sleeping. */
  woken: boolean;
  /** Ends the waiter's sleep early; set only while it sleeps. */
  wake: (() => void) | undefined;
}

/**
 * The waiters of one condition: one subscription to its notices while any waiter is registered,
 * and after each notice one probe for all of them; only the waiters whose receipt the probe names
 * look again (their own read), so a seal costs one read plus one per waiter it completes, however
 * many wait and however long. Notices arriving during a probe make one more probe after it,
 * never one each. While the notices are not live, a single timer probes every
 * `fallbackPollMs` instead.
 */
class WaiterGroup {
  private readonly waiters = new Set<Waiter>();
  private unsubscribe: (() => void) | undefined;
  private fallback: ReturnType<typeof setInterval> | undefined;
  private probing = false;
  private again = false;

  constructor(
    private readonly source: WaitSource,
    private readonly fallbackPollMs: number,
  ) {}

  get size(): number {
    return this.waiters.size;
  }

  /**
   * Runs `attempt` now and again each time the condition may hold for the receipt, until it is
   * done or `deadline` (epoch ms) passes; then its last value. The waiter is registered before
   * its first look, so a seal committed after that look is always noticed.
   */
  async until<T>(receiptId: string, deadline: number, attempt: () => Promise<Attempt<T>>) {
    const waiter: Waiter = { receiptId, woken: false, wake: undefined };
    this.add(waiter);
    try {
      for (;;) {
        waiter.woken = false;
        const { done, value } = await attempt();
        if (done || !(await this.sleep(waiter, deadline))) return value;
      }
    } finally {
      this.remove(waiter);
    }
  }

  private add(waiter: Waiter): void {
    this.waiters.add(waiter);
    if (this.waiters.size > 1) return;
    this.unsubscribe = this.source.notices.subscribe(() => this.noticed());
    this.fallback = setInterval(() => {
      if (!this.source.notices.live) this.noticed();
    }, this.fallbackPollMs);
    this.fallback.unref();
  }

  private remove(waiter: Waiter): void {
    this.waiters.delete(waiter);
    if (this.waiters.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.fallback);
    this.fallback = undefined;
  }

  /** True when woken (now or while it was looking), false when the deadline came first. */
  private sleep(waiter: Waiter, deadline: number): Promise<boolean> {
    if (waiter.woken) return Promise.resolve(true);
    const left = deadline - Date.now();
    if (left <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiter.wake = undefined;
        resolve(false);
      }, left);
      waiter.wake = () => {
        clearTimeout(timer);
        waiter.wake = undefined;
        resolve(true);
      };
    });
  }

  private noticed(): void {
    if (this.probing) {
      this.again = true;
      return;
    }
    this.probing = true;
    void this.probeWhileNoticed();
  }

  private async probeWhileNoticed(): Promise<void> {
    do {
      this.again = false;
      await this.probe();
    } while (this.again && this.waiters.size > 0);
    this.probing = false;
  }

  /**
   * One read for every registered waiter. A waiter that registers after the read began made its
   * own first look after the seal that sent the notice committed, so it misses nothing.
   */
  private async probe(): Promise<void> {
    const asked = [...this.waiters];
    if (asked.length === 0) return;
    let holds: ReadonlySet<string>;
    try {
      holds = await this.source.probe([...new Set(asked.map((w) => w.receiptId))]);
    } catch {
      // the store is unreachable: the waiters are left to the next notice, the fallback poll or
      // their deadline (they answer what they last read, as a wait that runs out does)
      return;
    }
    for (const waiter of asked) {
      if (!holds.has(waiter.receiptId)) continue;
      waiter.woken = true;
      waiter.wake?.();
    }
  }
}

/**
 * The process's waiters for log events (`Prefer: wait`), served from the store's notices: one
 * listener and one read per notice for all of them, never a poll per waiter.
 */
export class LogWaiters {
  private readonly groups: Record<WaitCondition, WaiterGroup>;

  constructor(sources: Record<WaitCondition, WaitSource>, fallbackPollMs = FALLBACK_POLL_MS) {
    this.groups = {
      sealed: new WaiterGroup(sources.sealed, fallbackPollMs),
      witnessed: new WaiterGroup(sources.witnessed, fallbackPollMs),
    };
  }

  /** How many wait now (all conditions). */
  get size(): number {
    return Object.values(this.groups).reduce((sum, group) => sum + group.size, 0);
  }

  /** See WaiterGroup.until: `attempt` runs at once and then only when the condition may hold. */
  until<T>(
    condition: WaitCondition,
    receiptId: string,
    deadline: number,
    attempt: () => Promise<Attempt<T>>,
  ): Promise<T> {
    return this.groups[condition].until(receiptId, deadline, attempt);
  }
}

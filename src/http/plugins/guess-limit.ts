import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether `presented` is `expected`, in time that does not depend on where they differ. */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Wrong guesses of a secret per client address, in fixed windows, in process: past `max` in a
 * window an address is told to wait. Only failures count, so the holder of the secret is never
 * refused because someone else guessed. At most `maxAddresses` are tracked; past that the table
 * starts afresh (a flood of addresses costs memory, never a lock-out).
 */
export class GuessLimit {
  private readonly failures = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly maxAddresses = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before the next guess from `address`, or 0 when it may guess. */
  retryAfter(address: string): number {
    const entry = this.failures.get(address);
    if (!entry || entry.until <= this.now() || entry.count < this.max) return 0;
    return Math.ceil((entry.until - this.now()) / 1000);
  }

  fail(address: string): void {
    const now = this.now();
    const entry = this.failures.get(address);
    if (entry && entry.until > now) {
      entry.count += 1;
      return;
    }
    if (this.failures.size >= this.maxAddresses) this.failures.clear();
    this.failures.set(address, { count: 1, until: now + this.windowMs });
  }
}

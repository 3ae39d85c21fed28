/**
 * The one way the service tries an operation again in process: jittered exponential back-off,
 * a bounded number of attempts, abortable. Clock and randomness are parameters, so a test runs
 * a whole schedule without waiting. Schedules kept in the store (a webhook delivery's next
 * attempt) are not retries in process and keep their own table.
 */

/** How long to wait after each failure. */
export interface Backoff {
  /** The wait after the first failure. */
  initialMs: number;
  /** Each further failure multiplies the wait by this. */
  factor: number;
  /** No wait is longer than this. */
  maxMs: number;
  /**
   * In [0, 1]: each wait is shortened by up to this fraction, at random, so that callers that
   * failed together do not all come back together. 0: the waits are exact.
   */
  jitter: number;
}

export interface RetryPolicy extends Backoff {
  /** Attempts in all, the first included (at least 1); `Infinity` until aborted. */
  attempts: number;
}

/** Waits `ms`, or rejects with the signal's reason once it is aborted. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Stops the retries: a wait ends at once and the attempt is not made. */
  signal?: AbortSignal | undefined;
  /** Defaults to a timer that does not hold the process open. */
  sleep?: Sleep;
  /** In [0, 1); defaults to Math.random. */
  random?: () => number;
  /** Whether a failure is worth another attempt (default: every failure is). */
  retryable?: (err: unknown) => boolean;
  /** Told each failure, with the wait before the next attempt (undefined: none follows). */
  onFailure?: (err: unknown, attempt: number, delayMs: number | undefined) => void;
}

/** The wait after `failures` consecutive failures (1: the first). */
export function backoffDelay(
  backoff: Backoff,
  failures: number,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, failures - 1);
  const nominal = Math.min(backoff.initialMs * backoff.factor ** exponent, backoff.maxMs);
  const jitter = Math.min(Math.max(backoff.jitter, 0), 1);
  return Math.round(nominal * (1 - jitter * random()));
}

/**
 * Runs `operation` until it resolves, it throws a failure `retryable` refuses, or `attempts`
 * have been made; then its answer, or the last failure, is the result. Each attempt learns its
 * number (1-based) and the signal. An abort rejects with the signal's reason, between attempts
 * as well as before the first.
 */
export async function retry<T>(
  operation: (attempt: number, signal?: AbortSignal) => Promise<T>,
  policy: RetryPolicy,
  options: RetryOptions = {},
): Promise<T> {
  const { signal, sleep = timerSleep, random = Math.random } = options;
  for (let attempt = 1; ; attempt += 1) {
    signal?.throwIfAborted();
    try {
      return await operation(attempt, signal);
    } catch (err) {
      const again =
        attempt < policy.attempts && !signal?.aborted && (options.retryable?.(err) ?? true);
      const delayMs = again ? backoffDelay(policy, attempt, random) : undefined;
      options.onFailure?.(err, attempt, delayMs);
      if (delayMs === undefined) throw err;
      await sleep(delayMs, signal);
    }
  }
}

/** A `setTimeout` wait that never keeps the process alive, ended early by `signal`. */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref();
    signal?.addEventListener('abort', onAbort, { once: true });
  });

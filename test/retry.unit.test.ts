import { describe, expect, it } from 'vitest';
import { backoffDelay, retry, timerSleep, type RetryPolicy, type Sleep } from '../src/retry.js';

/** The waits a retry asked for, made at once. */
function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      waits.push(ms);
    },
  };
}

/** An operation failing `failures` times, then answering `answer`; how often it was called. */
function flaky<T>(failures: number, answer: T) {
  const calls: number[] = [];
  return {
    calls,
    operation: async (attempt: number) => {
      calls.push(attempt);
      if (calls.length <= failures) throw new Error(`failure ${calls.length}`);
      return answer;
    },
  };
}

const EXACT: RetryPolicy = { attempts: 5, initialMs: 100, factor: 3, maxMs: 1_000, jitter: 0 };

describe('backoffDelay', () => {
  it('grows by its factor from the first wait, up to the longest', () => {
    const waits = [1, 2, 3, 4, 5].map((n) => backoffDelay(EXACT, n));
    expect(waits).toEqual([100, 300, 900, 1_000, 1_000]);
  });

  it('jitter shortens a wait by up to its fraction, never lengthens it', () => {
    const policy = { ...EXACT, jitter: 0.5 };
    expect(backoffDelay(policy, 2, () => 0)).toBe(300);
    expect(backoffDelay(policy, 2, () => 0.5)).toBe(225);
    expect(backoffDelay(policy, 2, () => 0.999_999)).toBe(150);
    expect(backoffDelay({ ...policy, jitter: 7 }, 2, () => 0.5)).toBe(150); // clamped to 1
  });
});

describe('retry', () => {
  it('answers as soon as an attempt succeeds, after the back-off between failures', async () => {
    const { sleep, waits } = recordingSleep();
    const op = flaky(2, 'done');
    await expect(retry(op.operation, EXACT, { sleep })).resolves.toBe('done');
    expect(op.calls).toEqual([1, 2, 3]);
    expect(waits).toEqual([100, 300]);
  });

  it('makes at most its attempts, then throws the last failure', async () => {
    const { sleep, waits } = recordingSleep();
    const op = flaky(10, 'never');
    const failures: [number, number | undefined][] = [];
    const onFailure = (_err: unknown, attempt: number, delayMs: number | undefined) =>
      failures.push([attempt, delayMs]);
    await expect(
      retry(op.operation, { ...EXACT, attempts: 3 }, { sleep, onFailure }),
    ).rejects.toThrow('failure 3');
    expect(op.calls).toEqual([1, 2, 3]);
    expect(waits).toEqual([100, 300]);
    expect(failures).toEqual([
      [1, 100],
      [2, 300],
      [3, undefined],
    ]);
  });

  it('stops at a failure that is not worth another attempt', async () => {
    const { sleep, waits } = recordingSleep();
    const op = flaky(10, 'never');
    const retryable = (err: unknown) => !(err as Error).message.endsWith('2');
    await expect(retry(op.operation, EXACT, { sleep, retryable })).rejects.toThrow('failure 2');
    expect(op.calls).toEqual([1, 2]);
    expect(waits).toEqual([100]);
  });

  it('uses the random source it is given for the jitter', async () => {
    const { sleep, waits } = recordingSleep();
    const op = flaky(2, 'done');
    await retry(op.operation, { ...EXACT, jitter: 1 }, { sleep, random: () => 0.25 });
    expect(waits).toEqual([75, 225]);
  });

  it('an abort ends the wait at once and makes no further attempt', async () => {
    const stop = new AbortController();
    const op = flaky(10, 'never');
    const slow: RetryPolicy = { ...EXACT, initialMs: 60_000, maxMs: 60_000 };
    const started = Date.now();
    const pending = retry(op.operation, slow, { signal: stop.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort(new Error('closing'));
    await expect(pending).rejects.toThrow('closing');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(op.calls).toEqual([1]);
  });

  it('an aborted signal makes no attempt at all', async () => {
    const op = flaky(0, 'done');
    await expect(
      retry(op.operation, EXACT, { signal: AbortSignal.abort(new Error('gone')) }),
    ).rejects.toThrow('gone');
    expect(op.calls).toEqual([]);
  });

  it('retries without end under an infinite policy until an attempt succeeds', async () => {
    const { sleep, waits } = recordingSleep();
    const op = flaky(50, 'up');
    await expect(retry(op.operation, { ...EXACT, attempts: Infinity }, { sleep })).resolves.toBe(
      'up',
    );
    expect(op.calls).toHaveLength(51);
    expect(waits.at(-1)).toBe(1_000);
  });
});

describe('timerSleep', () => {
  it('waits, and rejects with the reason when aborted', async () => {
    await expect(timerSleep(5)).resolves.toBeUndefined();
    const stop = new AbortController();
    const waiting = timerSleep(60_000, stop.signal);
    stop.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { Batcher } from '../../src/storage/batcher.js';

/** Group commit: a bad item fails only its own caller; an unavailable store fails the batch. */
describe('Batcher', () => {
  it('coalesces concurrent submissions into batches of at most maxBatch', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(async (items) => {
      batches.push(items);
      return items.map((i) => i * 10);
    }, 3);
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => batcher.submit(i)));
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('a batch takes what arrives in the same event-loop iteration, and the next what came meanwhile', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new Batcher<number, number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items;
    }, 100);
    // 3 is submitted by a callback queued earlier in this iteration's check phase, 1 now, 2 in a
    // microtask: all three arrive before the writer's own setImmediate, so one batch takes them.
    // (Timers would be flaky here: each setTimeout reads the clock, so two may fall due 1 ms apart.)
    const third = new Promise<number>((resolve) => setImmediate(() => resolve(batcher.submit(3))));
    const one = batcher.submit(1);
    const two = new Promise<number>((resolve) => queueMicrotask(() => resolve(batcher.submit(2))));
    const first = [one, two, third];
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    expect(batches).toEqual([[1, 2, 3]]);
    const later = [4, 5].map((i) => batcher.submit(i));
    release();
    expect(await Promise.all([...first, ...later])).toEqual([1, 2, 3, 4, 5]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('a batch that fails is retried item by item: only the bad item is rejected', async () => {
    const batcher = new Batcher<number, number>(async (items) => {
      if (items.includes(13)) throw new Error('check constraint violated');
      return items;
    }, 10);
    const outcomes = await Promise.allSettled([1, 13, 2, 3].map((i) => batcher.submit(i)));
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('check constraint violated');
  });

  it('the store being unavailable fails the whole batch without retrying each item', async () => {
    let writes = 0;
    const unavailable = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const batcher = new Batcher<number, number>(async () => {
      writes++;
      throw unavailable;
    }, 10);
    const outcomes = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)));
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(writes).toBeLessThanOrEqual(2); // the first item alone, then the rest together
  });
});

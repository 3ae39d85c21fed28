import { setImmediate as nextIteration } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TurnGate } from '../../src/http/turn-gate.js';

/** Event-loop iterations until `done()` holds (bounded, so a stuck gate fails the test). */
async function iterationsUntil(done: () => boolean, max = 100): Promise<number> {
  for (let i = 0; i < max; i++) {
    if (done()) return i;
    await nextIteration();
  }
  throw new Error('gate never released everything');
}

describe('TurnGate', () => {
  it('admits at most perTurn callers per loop iteration, first come first served', async () => {
    const gate = new TurnGate(2);
    const order: string[] = [];
    const entered = Array.from({ length: 7 }, (_, i) =>
      gate.enter().then(() => order.push(`h${i}`)),
    );
    await Promise.resolve();
    expect(order).toEqual(['h0', 'h1']);
    expect(gate.pending()).toBe(5);

    // a cheap task queued per iteration (as a socket read would be) runs between releases
    let stop = false;
    const ticks = (async () => {
      while (!stop) {
        order.push('|');
        await nextIteration();
      }
    })();
    await iterationsUntil(() => gate.pending() === 0);
    await Promise.all(entered);
    stop = true;
    await ticks;

    const heavy = order.filter((entry) => entry !== '|');
    expect(heavy).toEqual(['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
    const runs = order.join('').split('|');
    for (const run of runs) expect(run.length / 2).toBeLessThanOrEqual(2);
  });

  it('admits at once again when the service is idle', async () => {
    const gate = new TurnGate(1);
    await gate.enter();
    const second = gate.enter();
    expect(gate.pending()).toBe(1);
    await second;
    await nextIteration();
    await nextIteration();
    let admitted = false;
    void gate.enter().then(() => (admitted = true));
    await Promise.resolve();
    expect(admitted).toBe(true);
  });

  it('keeps its queue bounded by the callers waiting (no growth under sustained load)', async () => {
    const gate = new TurnGate(3);
    let released = 0;
    for (let round = 0; round < 400; round++) {
      for (let i = 0; i < 4; i++) void gate.enter().then(() => released++);
      await nextIteration();
    }
    await iterationsUntil(() => gate.pending() === 0, 1000);
    await Promise.resolve();
    expect(released).toBe(1600);
    expect((gate as unknown as { waiting: unknown[] }).waiting.length).toBe(0);
  });

  it('refuses a turn size below one', () => {
    expect(() => new TurnGate(0)).toThrow(RangeError);
  });
});

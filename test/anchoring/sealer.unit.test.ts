import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSealer, type SealerLog } from '../../src/anchoring/sealer.js';
import type { CosignOutcome } from '../../src/anchoring/witness/witnessing.js';

/** A log that keeps what the sealer said, message by message. */
function recordingLog(): SealerLog & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    info: (_fields, message) => void lines.push({ level: 'info', message }),
    warn: (_fields, message) => void lines.push({ level: 'warn', message }),
  };
}

/**
 * A log with a queue of pending entries (`append` adds, a seal takes them all) whose witness
 * round answers only when `release` is called (or it is aborted), unless `instantWitness`.
 */
function fakeAnchoring(options: { instantWitness?: boolean } = {}) {
  let pending = 0;
  let treeSize = 0;
  const releases: (() => void)[] = [];
  const calls = { counts: 0, seals: [] as number[], rounds: [] as number[], aborted: 0 };
  return {
    calls,
    append: (n = 1) => void (pending += n),
    release: () => releases.shift()?.(),
    anchoring: {
      async pendingCount() {
        calls.counts += 1;
        return pending;
      },
      async sealAll() {
        const sealed = pending;
        pending = 0;
        treeSize += sealed;
        calls.seals.push(Date.now());
        return { sealed, treeSize };
      },
      cosignLatest(signal?: AbortSignal): Promise<CosignOutcome[]> {
        calls.rounds.push(treeSize);
        if (options.instantWitness) return Promise.resolve([]);
        return new Promise((resolve) => {
          releases.push(() => resolve([{ witness: 'w', ok: true, detail: 'cosigned' }]));
          signal?.addEventListener('abort', () => {
            calls.aborted += 1;
            resolve([{ witness: 'w', ok: false, detail: 'aborted' }]);
          });
        });
      },
    },
  };
}

const schedule = { batchMs: 250, intervalMs: 60_000 };

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the sealer', () => {
  it('seals an entry within one batching window of its arrival, and only when one is pending', async () => {
    const log = fakeAnchoring({ instantWitness: true });
    const sealer = startSealer(log.anchoring, schedule, recordingLog());
    await vi.advanceTimersByTimeAsync(2_000);
    expect(log.calls.seals).toEqual([]);
    expect(log.calls.counts).toBe(8);
    log.append(3);
    await vi.advanceTimersByTimeAsync(250);
    expect(log.calls.seals).toEqual([2_250]);
    expect(log.calls.rounds).toEqual([3]);
    log.append();
    await vi.advanceTimersByTimeAsync(250);
    expect(log.calls.seals).toEqual([2_250, 2_500]);
    await sealer.stop();
  });

  it('seals and asks the witnesses every ANCHOR_INTERVAL_MS on a quiet log', async () => {
    const log = fakeAnchoring({ instantWitness: true });
    const sealer = startSealer(log.anchoring, { batchMs: 250, intervalMs: 1_000 }, recordingLog());
    await vi.advanceTimersByTimeAsync(3_100);
    expect(log.calls.seals).toEqual([1_000, 2_000, 3_000]);
    expect(log.calls.rounds).toEqual([0, 0, 0]);
    await sealer.stop();
  });

  it('with SEAL_BATCH_MS=0 seals only every ANCHOR_INTERVAL_MS', async () => {
    const log = fakeAnchoring({ instantWitness: true });
    const sealer = startSealer(log.anchoring, { batchMs: 0, intervalMs: 1_000 }, recordingLog());
    log.append();
    await vi.advanceTimersByTimeAsync(999);
    expect(log.calls.seals).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(log.calls.seals).toEqual([1_000]);
    expect(log.calls.counts).toBe(0);
    await sealer.stop();
  });

  it('keeps sealing while a witness hangs, with one witness round in flight and one more after it', async () => {
    const log = fakeAnchoring();
    const lines = recordingLog();
    const sealer = startSealer(log.anchoring, schedule, lines);
    log.append();
    await vi.advanceTimersByTimeAsync(250);
    expect(log.calls.rounds).toEqual([1]);
    for (let i = 0; i < 4; i++) {
      log.append();
      await vi.advanceTimersByTimeAsync(250);
    }
    // the next seals did not wait for the witness, and asked for no second concurrent round
    expect(log.calls.seals).toEqual([250, 500, 750, 1_000, 1_250]);
    expect(log.calls.rounds).toEqual([1]);
    log.release();
    await vi.advanceTimersByTimeAsync(0);
    // one more round, of the latest checkpoint, not one per seal
    expect(log.calls.rounds).toEqual([1, 5]);
    log.release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log.calls.rounds).toEqual([1, 5]);
    await sealer.stop();
    expect(lines.lines).toContainEqual({
      level: 'info',
      message: 'witness cosigned the checkpoint',
    });
    expect(lines.lines).toContainEqual({
      level: 'info',
      message: 'sealed log entries into a checkpoint',
    });
  });

  it('stop() aborts the witness request in flight, waits for it, and ends the timer', async () => {
    const log = fakeAnchoring();
    const sealer = startSealer(log.anchoring, schedule, recordingLog());
    log.append();
    await vi.advanceTimersByTimeAsync(300);
    expect(log.calls.rounds).toEqual([1]);
    await sealer.stop();
    expect(log.calls.aborted).toBe(1);
    const counts = log.calls.counts;
    log.append();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(log.calls.counts).toBe(counts);
    expect(log.calls.seals).toHaveLength(1);
  });

  it('logs a failed seal and tries again at the next window', async () => {
    let attempts = 0;
    const lines = recordingLog();
    const sealer = startSealer(
      {
        async pendingCount() {
          return 1;
        },
        async sealAll() {
          attempts += 1;
          throw new Error('store unavailable');
        },
        async cosignLatest() {
          return [];
        },
      },
      schedule,
      lines,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    await sealer.stop();
    expect(attempts).toBe(4);
    expect(lines.lines[0]).toEqual({ level: 'warn', message: 'sealing failed; will retry' });
  });
});

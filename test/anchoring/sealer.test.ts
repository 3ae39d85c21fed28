import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startIntervalSealer, type SealerLog } from '../../src/anchoring/sealer.js';
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

/** An anchoring whose witness round answers only when `release` is called (or it is aborted). */
function slowWitnessAnchoring() {
  let release: () => void = () => {};
  const calls = { seals: 0, rounds: 0, aborted: 0 };
  return {
    calls,
    release: () => release(),
    anchoring: {
      async sealAll() {
        calls.seals += 1;
        return { sealed: 1, treeSize: calls.seals };
      },
      cosignLatest(signal?: AbortSignal): Promise<CosignOutcome[]> {
        calls.rounds += 1;
        return new Promise((resolve) => {
          const done = () => resolve([{ witness: 'w', ok: true, detail: 'cosigned' }]);
          release = done;
          signal?.addEventListener('abort', () => {
            calls.aborted += 1;
            resolve([{ witness: 'w', ok: false, detail: 'aborted' }]);
          });
        });
      },
    },
  };
}

describe('the interval sealer', () => {
  it('runs one tick at a time: ticks due while a witness hangs are skipped, not queued', async () => {
    const { anchoring, calls, release } = slowWitnessAnchoring();
    const log = recordingLog();
    const sealer = startIntervalSealer(anchoring, 10, log);
    await sleep(120);
    expect(calls).toMatchObject({ seals: 1, rounds: 1 });
    release();
    await sleep(60);
    expect(calls.seals).toBeGreaterThan(1);
    await sealer.stop();
    expect(log.lines).toContainEqual({ level: 'info', message: 'witness cosigned the checkpoint' });
    expect(log.lines).toContainEqual({
      level: 'info',
      message: 'sealed log entries into a checkpoint',
    });
  });

  it('stop() aborts the witness request in flight, waits for the tick, and ends the timer', async () => {
    const { anchoring, calls } = slowWitnessAnchoring();
    const sealer = startIntervalSealer(anchoring, 10, recordingLog());
    await sleep(50);
    await sealer.stop();
    expect(calls.aborted).toBe(1);
    const seals = calls.seals;
    await sleep(50);
    expect(calls.seals).toBe(seals);
  });

  it('logs a failed seal and tries again at the next tick', async () => {
    let attempts = 0;
    const log = recordingLog();
    const sealer = startIntervalSealer(
      {
        async sealAll() {
          attempts += 1;
          throw new Error('store unavailable');
        },
        async cosignLatest() {
          return [];
        },
      },
      10,
      log,
    );
    await sleep(80);
    await sealer.stop();
    expect(attempts).toBeGreaterThan(1);
    expect(log.lines[0]).toEqual({ level: 'warn', message: 'sealing failed; will retry' });
  });
});

import type { SealedCheckpoint, SealListener, TimestampStore } from '../anchoring/timestamps.js';
import { requestTimestamp, type TsaOptions } from './client.js';

/**
 * After each seal, the checkpoint note (the exact bytes the log signed) is time-stamped by every
 * configured authority, each on its own: a failure is reported and retried after each delay of
 * RETRY_DELAYS_MS, then given up; nothing waits for it (the seal has committed, receipts keep
 * being issued). Only a checked token is stored.
 */

export interface TimestampOutcome {
  tsaUrl: string;
  treeSize: number;
  ok: boolean;
  /** The last attempt for this checkpoint and authority (a success, or the final failure). */
  final: boolean;
  detail: string;
}

export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
/** Checkpoint and authority pairs in progress at once; beyond this a new one is skipped. */
const MAX_IN_FLIGHT = 64;

export interface CheckpointTimestamperOptions {
  tsas: readonly TsaOptions[];
  store: TimestampStore;
  retryDelaysMs?: readonly number[];
}

export class CheckpointTimestamper {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stop = new AbortController();
  private readonly listeners: ((outcome: TimestampOutcome) => void)[] = [];
  private readonly delays: readonly number[];

  constructor(private readonly options: CheckpointTimestamperOptions) {
    this.delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  /** The seal listener the log calls with each new checkpoint. */
  readonly onSealed: SealListener = (checkpoint) => {
    for (const tsa of this.options.tsas) {
      if (this.stop.signal.aborted) return;
      if (this.inFlight.size >= MAX_IN_FLIGHT) {
        this.report({
          tsaUrl: tsa.url,
          treeSize: checkpoint.treeSize,
          ok: false,
          final: true,
          detail: 'skipped: too many time-stamp requests in progress',
        });
        continue;
      }
      const job = this.stampWithRetries(tsa, checkpoint).finally(() => this.inFlight.delete(job));
      this.inFlight.add(job);
    }
  };

  onOutcome(listener: (outcome: TimestampOutcome) => void): void {
    this.listeners.push(listener);
  }

  /** Resolves once every request in progress has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Abandons the requests and retries in progress. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.idle();
  }

  private async stampWithRetries(tsa: TsaOptions, checkpoint: SealedCheckpoint): Promise<void> {
    const data = new TextEncoder().encode(checkpoint.note);
    for (let attempt = 0; ; attempt += 1) {
      const final = attempt >= this.delays.length;
      const result = await requestTimestamp(tsa, data, this.stop.signal);
      if (this.stop.signal.aborted) return;
      let detail = result.ok
        ? `stamped at ${result.genTime.toISOString()} by ${result.tsaName}`
        : result.reason;
      if (result.ok) {
        try {
          await this.options.store.addTimestamp({
            treeSize: checkpoint.treeSize,
            tsaUrl: tsa.url,
            tsaName: result.tsaName,
            token: result.token,
            genTime: result.genTime,
          });
          this.report({
            tsaUrl: tsa.url,
            treeSize: checkpoint.treeSize,
            ok: true,
            final: true,
            detail,
          });
          return;
        } catch (err) {
          detail = `the token could not be stored: ${(err as Error).message}`;
        }
      }
      this.report({ tsaUrl: tsa.url, treeSize: checkpoint.treeSize, ok: false, final, detail });
      if (final || !(await sleep(this.delays[attempt] ?? 0, this.stop.signal))) return;
    }
  }

  private report(outcome: TimestampOutcome): void {
    for (const listener of this.listeners) {
      try {
        listener(outcome);
      } catch {
        // a reporting listener's failure is not the time-stamping's
      }
    }
  }
}

/** Waits `ms`; false when aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    timer.unref();
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

import type { SealedCheckpoint, SealListener, TimestampStore } from '../anchoring/timestamps.js';
import { retry, type RetryPolicy } from '../retry.js';
import { requestTimestamp, type TsaOptions } from './client.js';

/**
 * After each seal, the checkpoint note (the exact bytes the log signed) is time-stamped by every
 * configured authority, each on its own: a failure is reported and retried on CHECKPOINT_RETRY
 * (four attempts, about 1 s, 5 s and 25 s apart), then given up; nothing waits for it (the seal has committed, receipts keep
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

export const CHECKPOINT_RETRY: RetryPolicy = {
  attempts: 4,
  initialMs: 1_000,
  factor: 5,
  maxMs: 30_000,
  jitter: 0.2,
};
/** Checkpoint and authority pairs in progress at once; beyond this a new one is skipped. */
const MAX_IN_FLIGHT = 64;

export interface CheckpointTimestamperOptions {
  tsas: readonly TsaOptions[];
  store: TimestampStore;
  /** Defaults to CHECKPOINT_RETRY. */
  retry?: RetryPolicy;
}

export class CheckpointTimestamper {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stop = new AbortController();
  private readonly listeners: ((outcome: TimestampOutcome) => void)[] = [];
  constructor(private readonly options: CheckpointTimestamperOptions) {}

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
    const treeSize = checkpoint.treeSize;
    const stamped = await retry(
      () => this.stampOnce(tsa, checkpoint),
      this.options.retry ?? CHECKPOINT_RETRY,
      {
        signal: this.stop.signal,
        onFailure: (err, _attempt, delayMs) => {
          if (this.stop.signal.aborted) return; // abandoned, not failed
          const detail = err instanceof Error ? err.message : String(err);
          this.report({
            tsaUrl: tsa.url,
            treeSize,
            ok: false,
            final: delayMs === undefined,
            detail,
          });
        },
      },
    ).catch(() => undefined); // each failure is reported above
    if (stamped) this.report({ tsaUrl: tsa.url, treeSize, ok: true, final: true, detail: stamped });
  }

  /** One request and, for a checked token, its storing; what happened, or a thrown failure. */
  private async stampOnce(tsa: TsaOptions, checkpoint: SealedCheckpoint): Promise<string> {
    const data = new TextEncoder().encode(checkpoint.note);
    const result = await requestTimestamp(tsa, data, this.stop.signal);
    if (!result.ok) throw new Error(result.reason);
    try {
      await this.options.store.addTimestamp({
        treeSize: checkpoint.treeSize,
        tsaUrl: tsa.url,
        tsaName: result.tsaName,
        token: result.token,
        genTime: result.genTime,
      });
    } catch (err) {
      throw new Error(`the token could not be stored: ${(err as Error).message}`, { cause: err });
    }
    return `stamped at ${result.genTime.toISOString()} by ${result.tsaName}`;
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

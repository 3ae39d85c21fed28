import type { AnchorService } from './anchor-service.js';

/** What the sealer logs through; pino's and Fastify's loggers fit it. */
export interface SealerLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface IntervalSealer {
  /** Stops the timer, aborts the witness requests in flight and waits for the running tick. */
  stop(): Promise<void>;
}

/**
 * The in-process sealer: every `intervalMs` (ANCHOR_INTERVAL_MS; `receipts anchor run` seals on
 * demand) pending entries are sealed into a signed checkpoint, then the configured witnesses are
 * asked to cosign it (a witness failure is logged, never blocks). Replicas may all run it: the
 * store's seal lock lets one seal at a time, and a witness answers a stale request with 409.
 *
 * One tick at a time: a tick due while the previous one still runs (a slow witness) is skipped,
 * never queued, so ticks cannot pile up behind a witness that does not answer. Stopping ends the
 * timer, aborts the witness requests in flight and waits only for the running tick to notice.
 * The composition root (src/app.ts) starts it with the server and stops it when the server closes.
 */
export function startIntervalSealer(
  anchoring: Pick<AnchorService, 'sealAll' | 'cosignLatest'>,
  intervalMs: number,
  log: SealerLog,
): IntervalSealer {
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running || stop.signal.aborted) return;
    running = tick(anchoring, log, stop.signal).finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      stop.abort();
      await running;
    },
  };
}

/** One seal and one round of witness requests; failures are logged, never thrown. */
async function tick(
  anchoring: Pick<AnchorService, 'sealAll' | 'cosignLatest'>,
  log: SealerLog,
  signal: AbortSignal,
): Promise<void> {
  try {
    const started = performance.now();
    const { sealed, treeSize } = await anchoring.sealAll();
    const durationMs = Math.round(performance.now() - started);
    if (sealed > 0)
      log.info({ sealed, treeSize, durationMs }, 'sealed log entries into a checkpoint');
    if (signal.aborted) return;
    // witnesses that are behind catch up at every tick, new entries or not
    for (const outcome of await anchoring.cosignLatest(signal)) {
      if (outcome.ok) log.info(outcome, 'witness cosigned the checkpoint');
      else log.warn(outcome, 'witness did not cosign the checkpoint');
    }
  } catch (err) {
    log.warn({ err }, 'sealing failed; will retry');
  }
}

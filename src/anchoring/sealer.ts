import type { AnchorService } from './anchor-service.js';

/** What the sealer logs through; pino's and Fastify's loggers fit it. */
export interface SealerLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface Sealer {
  /** Stops the timer, aborts the witness requests in flight and waits for both to notice. */
  stop(): Promise<void>;
}

export interface SealerSchedule {
  /**
   * SEAL_BATCH_MS: the batching window. Every `batchMs` the sealer looks for pending entries and
   * seals them; 0 turns this off, leaving only the `intervalMs` cadence.
   */
  batchMs: number;
  /**
   * ANCHOR_INTERVAL_MS: the longest time between two seal attempts and two witness rounds, the
   * cadence of a quiet log (witnesses that are behind catch up then, new entries or not).
   */
  intervalMs: number;
}

type SealerAnchoring = Pick<AnchorService, 'sealAll' | 'cosignLatest' | 'pendingCount'>;

/**
 * The in-process sealer. Entries are sealed as they arrive: a check runs `batchMs` after the
 * previous one ended (its seal included), and seals when an entry is pending, so an entry waits
 * at most one batching window plus the seal in progress. Checks never overlap; the count is one
 * indexed query, so an idle log costs one query per window. Every `intervalMs` a check seals and
 * asks the witnesses even with nothing pending. Polling the store, rather than being told by
 * issuance, also covers entries issued by other processes (cluster workers, other replicas):
 * replicas may all run it, the store's seal lock lets one seal at a time, and a witness answers
 * a stale request with 409.
 *
 * The witness round runs beside the seals: seal N+1 never waits for the witnesses of seal N.
 * One round at a time: a seal that ends while a round is in flight asks for one more round
 * once it ends (of the latest checkpoint then), so rounds cannot pile up behind a witness that
 * does not answer. A checkpoint's cosignatures are stored as they arrive.
 *
 * Stopping ends the timer, aborts the witness requests in flight and waits for the running
 * check and round to notice. The composition root (src/app.ts) starts it with the server and
 * stops it when the server closes.
 */
export function startSealer(
  anchoring: SealerAnchoring,
  schedule: SealerSchedule,
  log: SealerLog,
): Sealer {
  const { batchMs, intervalMs } = schedule;
  const period = batchMs > 0 ? Math.min(batchMs, intervalMs) : intervalMs;
  const stop = new AbortController();
  let lastFull = Date.now();
  let check: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const witnesses = witnessRounds(anchoring, log, stop.signal);

  const next = () => {
    if (stop.signal.aborted) return;
    timer = setTimeout(() => {
      check = checkOnce().finally(() => {
        check = undefined;
        next();
      });
    }, period);
    timer.unref();
  };

  async function checkOnce(): Promise<void> {
    try {
      const full = batchMs <= 0 || Date.now() - lastFull >= intervalMs;
      if (!full && (await anchoring.pendingCount()) === 0) return;
      if (full) lastFull = Date.now();
      const started = performance.now();
      const { sealed, treeSize } = await anchoring.sealAll();
      const durationMs = Math.round(performance.now() - started);
      if (sealed > 0)
        log.info({ sealed, treeSize, durationMs }, 'sealed log entries into a checkpoint');
      if (sealed > 0 || full) witnesses.request();
    } catch (err) {
      log.warn({ err }, 'sealing failed; will retry');
    }
  }

  next();
  return {
    async stop() {
      clearTimeout(timer);
      stop.abort();
      await check;
      await witnesses.settled();
    },
  };
}

/** One witness round at a time; a request while one runs starts one more after it. */
function witnessRounds(anchoring: SealerAnchoring, log: SealerLog, signal: AbortSignal) {
  let round: Promise<void> | undefined;
  let again = false;

  const request = (): void => {
    if (signal.aborted) return;
    if (round) {
      again = true;
      return;
    }
    round = cosignRound(anchoring, log, signal).finally(() => {
      round = undefined;
      if (!again) return;
      again = false;
      request();
    });
  };
  return {
    request,
    async settled() {
      while (round) await round;
    },
  };
}

/** Asks the witnesses to cosign the latest checkpoint; failures are logged, never thrown. */
async function cosignRound(
  anchoring: SealerAnchoring,
  log: SealerLog,
  signal: AbortSignal,
): Promise<void> {
  try {
    for (const outcome of await anchoring.cosignLatest(signal)) {
      if (outcome.ok) log.info(outcome, 'witness cosigned the checkpoint');
      else log.warn(outcome, 'witness did not cosign the checkpoint');
    }
  } catch (err) {
    log.warn({ err }, 'witness round failed; will retry');
  }
}

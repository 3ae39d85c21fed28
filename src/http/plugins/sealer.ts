import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AnchorService } from '../../anchoring/anchor-service.js';

/**
 * The in-process sealer: every ANCHOR_INTERVAL_MS (0 disables it; `receipts anchor run` seals on
 * demand) pending entries are sealed into a signed checkpoint, then the configured witnesses are
 * asked to cosign it (a witness failure is logged, never blocks). Replicas may all run it: the
 * store's seal lock lets one seal at a time, and a witness answers a stale request with 409.
 *
 * One tick at a time: a tick due while the previous one still runs (a slow witness) is skipped,
 * never queued, so ticks cannot pile up behind a witness that does not answer. Closing stops the
 * timer, aborts the witness requests in flight and waits only for the running tick to notice.
 */
export default fp(
  async function sealer(app: FastifyInstance) {
    const { anchoring } = app.services;
    const interval = app.settings.anchorIntervalMs;
    if (interval <= 0 || !anchoring.enabled) return;
    const stop = new AbortController();
    let running: Promise<void> | undefined;
    const timer = setInterval(() => {
      if (running || stop.signal.aborted) return;
      running = tick(anchoring, app.log, stop.signal).finally(() => (running = undefined));
    }, interval);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      stop.abort();
      await running;
    });
  },
  { name: 'sealer', dependencies: ['services'] },
);

/** One seal and one round of witness requests; failures are logged, never thrown. */
async function tick(
  anchoring: AnchorService,
  log: FastifyBaseLogger,
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

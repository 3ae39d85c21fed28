import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The in-process sealer: every ANCHOR_INTERVAL_MS (0 disables it; `receipts anchor run` seals on
 * demand) pending entries are sealed into a signed checkpoint, then the configured witnesses are
 * asked to cosign it (a witness failure is logged, never blocks). Replicas may all run it: the
 * store's seal lock lets one seal at a time, and a witness answers a stale request with 409.
 */
export default fp(
  async function sealer(app: FastifyInstance) {
    const { anchoring } = app.services;
    const interval = app.settings.anchorIntervalMs;
    if (interval <= 0 || !anchoring.enabled) return;
    let running: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      running = running.then(async () => {
        try {
          const started = performance.now();
          const { sealed, treeSize } = await anchoring.sealAll();
          const durationMs = Math.round(performance.now() - started);
          if (sealed > 0)
            app.log.info({ sealed, treeSize, durationMs }, 'sealed log entries into a checkpoint');
          // witnesses that are behind catch up at every tick, new entries or not
          for (const outcome of await anchoring.cosignLatest()) {
            if (outcome.ok) app.log.info(outcome, 'witness cosigned the checkpoint');
            else app.log.warn(outcome, 'witness did not cosign the checkpoint');
          }
        } catch (err) {
          app.log.warn({ err }, 'sealing failed; will retry');
        }
      });
    }, interval);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'sealer', dependencies: ['services'] },
);

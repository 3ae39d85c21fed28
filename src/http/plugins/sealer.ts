import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The in-process sealer: every ANCHOR_INTERVAL_MS (0 disables it; `receipts anchor run` seals on
 * demand) pending receipts are sealed into a signed checkpoint. Replicas may all run it: the
 * store's seal lock lets one seal at a time.
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
          const { sealed, treeSize } = await anchoring.sealAll();
          if (sealed > 0) app.log.info({ sealed, treeSize }, 'sealed receipts into a checkpoint');
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

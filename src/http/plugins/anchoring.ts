import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AnchorService } from '../../anchoring/anchor-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    anchoring: AnchorService;
  }
}

/**
 * The anchoring service, and the in-process sealer: every ANCHOR_INTERVAL_MS (0 disables it;
 * `receipts anchor run` seals on demand) pending receipts are sealed into a signed checkpoint.
 * Replicas may all run it: the advisory lock lets one seal at a time.
 */
export default fp(
  async function anchoring(app: FastifyInstance) {
    const service = new AnchorService(app.repos.log, app.signer, app.settings.logOrigin, () =>
      app.repos.signingKeys.publicKeyBytes(),
    );
    app.decorate('anchoring', service);

    const interval = app.settings.anchorIntervalMs;
    if (interval <= 0 || !service.enabled) return;
    let running: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      running = running.then(async () => {
        try {
          const { sealed, treeSize } = await service.sealAll();
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
  { name: 'anchoring', dependencies: ['storage', 'receipts'] },
);

import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SmeeClient } from 'smee-client';
import { WEBHOOK_PATH } from './webhook-path.js';

/**
 * Development only: with WEBHOOK_PROXY_URL (a smee.io channel, as Probot uses), webhooks GitHub
 * sends to the channel are forwarded to this process's webhook route once it listens, so a
 * laptop without a public address receives them. Signatures are still checked on arrival.
 */
export function forwardWebhooks(app: FastifyInstance, source: string): void {
  const log = app.log.child({ component: 'webhook-proxy' });
  const logger = {
    info: (...args: unknown[]) => log.debug(args.map(String).join(' ')),
    error: (...args: unknown[]) => log.warn(args.map(String).join(' ')),
  };
  let client: SmeeClient | undefined;
  app.addHook('onListen', async () => {
    const { port } = app.server.address() as AddressInfo;
    client = new SmeeClient({ source, target: `http://127.0.0.1:${port}${WEBHOOK_PATH}`, logger });
    client.start().then(
      () => log.info({ source }, 'forwarding webhooks from WEBHOOK_PROXY_URL'),
      (err: unknown) => log.warn({ err, source }, 'WEBHOOK_PROXY_URL unreachable; retrying'),
    );
  });
  app.addHook('onClose', async () => {
    await client?.stop();
  });
}

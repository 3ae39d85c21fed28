import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../storage/database.js';
import { createRepositories, type Repositories } from '../../storage/repositories.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    repos: Repositories;
  }
}

/** Decorates the app with the store and its repositories; closes the store with the app. */
export default fp(
  async function storage(
    app: FastifyInstance,
    opts: { db: Database; ownsDb: boolean; insertBatch: number; receiptCacheMax: number },
  ) {
    app.decorate('db', opts.db);
    const { insertBatch, receiptCacheMax } = opts;
    app.decorate('repos', createRepositories(opts.db, { insertBatch, receiptCacheMax }));
    if (opts.ownsDb) app.addHook('onClose', async () => opts.db.close());
  },
  { name: 'storage' },
);

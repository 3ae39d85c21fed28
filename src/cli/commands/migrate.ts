import { migrate } from '../../storage/migrations/index.js';
import { openDatabase } from '../../storage/database.js';
import type { Command } from '../context.js';

export const migrateCommand: Command = async (ctx) => {
  if (ctx.services) {
    ctx.out('already up to date (the running server migrated the store when it started)');
    return;
  }
  const db = await openDatabase(ctx.config.store, { migrate: false });
  try {
    const applied = await migrate(db.knex);
    ctx.out(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
  } finally {
    await db.close();
  }
};

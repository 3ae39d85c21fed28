import { migrate } from '../../storage/migrations/index.js';
import { openDatabase } from '../../storage/database.js';
import type { Command } from '../context.js';

export const migrateCommand: Command = async (ctx) => {
  const db = await openDatabase(ctx.config.store, { migrate: false });
  try {
    const applied = await migrate(db.knex);
    ctx.out(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
  } finally {
    await db.close();
  }
};

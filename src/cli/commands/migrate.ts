import { migrate } from '../../storage/migrations/index.js';
import { openDatabase } from '../../storage/database.js';
import type { CliContext, Command } from '../context.js';
import { describeStore, embeddedStoreExists } from '../store.js';

/** Opens the configured store (creating an embedded one where none exists) and migrates it. */
async function migrateStore(ctx: CliContext): Promise<string[]> {
  const db = await openDatabase(ctx.config.store, { migrate: false });
  try {
    return await migrate(db.knex);
  } finally {
    await db.close();
  }
}

/** `receipts migrate`: the schema up to date; creates the store if none exists (the image's entrypoint relies on it). */
export const migrateCommand: Command = async (ctx) => {
  if (ctx.services) {
    ctx.out('already up to date (the running server migrated the store when it started)');
    return;
  }
  const applied = await migrateStore(ctx);
  ctx.out(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
};

/** `receipts init`: creates the store the CLI and the server will use, and says where it is. */
export const initCommand: Command = async (ctx) => {
  const store = ctx.config.store;
  const where = describeStore(store, ctx.services !== undefined);
  if (ctx.services) {
    ctx.out(`the store exists and is in use by the running server: ${where}`);
    return;
  }
  const existed =
    store.kind === 'embedded' && store.dataDir !== null && embeddedStoreExists(store.dataDir);
  const applied = await migrateStore(ctx);
  if (store.kind === 'embedded' && !existed) ctx.out(`created the ${where}`);
  else if (store.kind === 'embedded') ctx.out(`the ${where} exists already`);
  else ctx.out(`store: ${where}`);
  ctx.out(
    applied.length
      ? `schema brought up to date: ${applied.join(', ')}`
      : 'schema already up to date',
  );
};

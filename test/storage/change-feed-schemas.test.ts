import { afterAll, describe, expect, it } from 'vitest';
import type { CachedTable } from '../../src/storage/change-feed.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import type { StoreConfig } from '../../src/config.js';
import { closeStore, isPostgres, testStore } from '../helpers/context.js';

/**
 * Change notifications name their schema: a store hears its own tables' changes by table name,
 * and (PostgreSQL, one channel per database) not the changes of a deployment in another schema.
 */
const opened: { db: Database; store: StoreConfig }[] = [];
afterAll(async () => {
  for (const { db, store } of opened.reverse()) await closeStore(db, store);
});

async function open(): Promise<{ db: Database; heard: (CachedTable | '*')[] }> {
  const store = testStore();
  const db = await openDatabase(store);
  opened.push({ db, store });
  const heard: (CachedTable | '*')[] = [];
  db.changes.onChange((table) => heard.push(table));
  return { db, heard };
}

async function until(check: () => boolean, ms = 3_000): Promise<void> {
  for (const end = Date.now() + ms; !check() && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the change feed', () => {
  it("hears its own store's change by table name", async () => {
    const { db, heard } = await open();
    // a change made with SQL, as another replica or an operator would, not announced in process
    await db.knex('api_keys').update({ name: 'renamed' });
    await until(() => heard.includes('api_keys'));
    expect(heard).toContain('api_keys');
    expect(heard.every((t) => t === '*' || !t.includes('.'))).toBe(true);
  });

  it.runIf(isPostgres())("ignores another schema's changes on the same database", async () => {
    const a = await open();
    const b = await open();
    a.heard.length = 0;
    await b.db.knex('api_keys').insert({
      id: '00000000-0000-4000-8000-000000000001',
      tenant: 't',
      name: 'other deployment',
      scopes: ['read'],
      secret_hash: 'x'.repeat(64),
    });
    await until(() => b.heard.includes('api_keys'));
    expect(b.heard).toContain('api_keys');
    await new Promise((r) => setTimeout(r, 300));
    expect(a.heard).not.toContain('api_keys');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowCache } from '../../src/storage/change-feed.js';
import { openDatabase, type Database } from '../../src/storage/database.js';

/** The cache's own rules, on the embedded store's feed (live from the start). */
let db: Database;
beforeAll(async () => {
  db = await openDatabase({ kind: 'embedded', dataDir: null });
});
afterAll(async () => db.close());

function counted<V>(value: V) {
  const loader = { loads: 0, load: async () => (loader.loads++, value) };
  return loader;
}

describe('RowCache', () => {
  it('reads once, then serves the same frozen value until its table changes', async () => {
    const cache = new RowCache<{ n: number; inner: { m: number } }>(db.changes, 'receipts');
    const row = counted({ n: 1, inner: { m: 2 } });
    const first = await cache.through('k', row.load);
    expect(await cache.through('k', row.load)).toBe(first);
    expect(row.loads).toBe(1);
    expect(Object.isFrozen(first) && Object.isFrozen(first?.inner)).toBe(true);
    db.changes.announce('notaries'); // another table: kept
    await cache.through('k', row.load);
    expect(row.loads).toBe(1);
    db.changes.announce('receipts');
    await cache.through('k', row.load);
    expect(row.loads).toBe(2);
  });

  it('does not keep a read that a change overtook', async () => {
    const cache = new RowCache<string>(db.changes, 'api_keys');
    let release: (value: string) => void = () => undefined;
    const stale = cache.through('k', () => new Promise((resolve) => (release = resolve)));
    db.changes.announce('api_keys'); // committed while the read was on its way
    release('before the change');
    expect(await stale).toBe('before the change');
    expect(await cache.through('k', async () => 'after the change')).toBe('after the change');
  });

  it('keeps nothing for a missing row, and nothing at all with room for none', async () => {
    const missing = counted<string | undefined>(undefined);
    const cache = new RowCache<string>(db.changes, 'notaries');
    await cache.through('absent', missing.load);
    await cache.through('absent', missing.load);
    expect(missing.loads).toBe(2);
    const none = new RowCache<string>(db.changes, 'notaries', 0);
    const row = counted('v');
    await none.through('k', row.load);
    await none.through('k', row.load);
    expect(row.loads).toBe(2);
  });

  it('is bypassed while the feed is not live', async () => {
    const cache = new RowCache<string>(db.changes, 'receipts');
    const row = counted('v');
    db.changes.live = false;
    try {
      await cache.through('k', row.load);
      await cache.through('k', row.load);
    } finally {
      db.changes.live = true;
    }
    expect(row.loads).toBe(2);
  });

  it('drops only the entries a narrower change made stale, and everything on a plain one', async () => {
    const cache = new RowCache<string>(db.changes, 'receipts', 10, (detail, key) => key === detail);
    const a = counted('a');
    const b = counted('b');
    await cache.through('a', a.load);
    await cache.through('b', b.load);
    db.changes.announce('receipts', 'a');
    await cache.through('a', a.load);
    await cache.through('b', b.load);
    expect([a.loads, b.loads]).toEqual([2, 1]);
    db.changes.announce('receipts');
    await cache.through('b', b.load);
    expect(b.loads).toBe(2);
  });
});

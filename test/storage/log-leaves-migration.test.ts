import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrate } from '../../src/storage/migrations/index.js';
import { closeStore, testStore } from '../helpers/context.js';
import { refLeafHash } from '../helpers/merkle-reference.js';

/**
 * Migration 015: leaf positions and the queue move out of log_entries, nothing lost. One store
 * before the migration, with two sealed entries and one pending, migrated once for the tests.
 */
describe('migration 015', () => {
  const store = testStore({ blank: true });
  let db: Database | undefined;
  let sealed: number[];
  let pending: number;

  const knex = () => {
    if (!db) throw new Error('the store did not open');
    return db.knex;
  };

  const addReceipt = async (bytes: Buffer) => {
    const id = randomUUID();
    await knex()('receipts').insert({
      id,
      tenant: 't',
      body: {},
      receipt_hash: `sha256:${bytes.toString('hex')}`,
      created_at: new Date(),
      has_proof_artifact: true,
    });
    return id;
  };

  const entry = async (leafIndex: number | null) => {
    const bytes = randomBytes(32);
    const id = await addReceipt(bytes);
    const [row] = (await knex()('log_entries')
      .insert({
        receipt_id: id,
        entry: bytes,
        leaf_hash: Buffer.from(refLeafHash(bytes)),
        leaf_index: leafIndex,
        anchored_at: leafIndex === null ? null : new Date('2026-01-02T03:04:05Z'),
      })
      .returning('seq')) as { seq: string | number }[];
    return Number(row!.seq);
  };

  const queued = async () =>
    ((await knex()('log_pending').orderBy('seq')) as { seq: string | number }[]).map((r) =>
      Number(r.seq),
    );

  beforeAll(async () => {
    db = await openDatabase(store, { migrate: false });
    await migrate(db.knex, '014_receipt_bodies_inline');
    sealed = [await entry(0), await entry(1)];
    pending = await entry(null);
    await migrate(db.knex);
  });
  afterAll(async () => {
    if (db) await closeStore(db, store);
  });

  it('moves the sealed positions to log_leaves, with the time each was anchored', async () => {
    const leaves = (await knex()('log_leaves').orderBy('leaf_index')) as {
      leaf_index: string | number;
      seq: string | number;
      anchored_at: Date;
    }[];
    expect(leaves.map((l) => [Number(l.leaf_index), Number(l.seq)])).toEqual([
      [0, sealed[0]],
      [1, sealed[1]],
    ]);
    expect(leaves.map((l) => new Date(l.anchored_at).toISOString())).toEqual([
      '2026-01-02T03:04:05.000Z',
      '2026-01-02T03:04:05.000Z',
    ]);
  });

  it('moves the pending entry to the queue, and log_entries keeps neither column', async () => {
    expect(await queued()).toEqual([pending]);
    const columns = Object.keys(await knex()('log_entries').columnInfo());
    expect(columns).not.toContain('leaf_index');
    expect(columns).not.toContain('anchored_at');
  });

  it("queues any writer's new entry by the database itself", async () => {
    const bytes = randomBytes(32);
    const id = await addReceipt(bytes);
    const [row] = (await knex()('log_entries')
      .insert({ receipt_id: id, entry: bytes, leaf_hash: Buffer.from(refLeafHash(bytes)) })
      .returning('seq')) as { seq: string | number }[];
    expect(await queued()).toEqual([pending, Number(row!.seq)]);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrate } from '../../src/storage/migrations/index.js';
import { closeStore, testStore } from '../helpers/context.js';
import { refLeafHash } from '../helpers/merkle-reference.js';

/** Migration 015: leaf positions and the queue move out of log_entries, nothing lost. */
describe('migration 015', () => {
  it('moves sealed positions to log_leaves and the rest to the queue, which then fills itself', async () => {
    const store = testStore({ blank: true });
    const db = await openDatabase(store, { migrate: false });
    try {
      await migrate(db.knex, '014_receipt_bodies_inline');
      const addReceipt = async (bytes: Buffer) => {
        const id = randomUUID();
        await db.knex('receipts').insert({
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
        const [row] = (await db
          .knex('log_entries')
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
      const sealed = [await entry(0), await entry(1)];
      const pending = await entry(null);

      await migrate(db.knex);
      const leaves = (await db.knex('log_leaves').orderBy('leaf_index')) as {
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
      const queued = async () =>
        ((await db.knex('log_pending').orderBy('seq')) as { seq: string | number }[]).map((r) =>
          Number(r.seq),
        );
      expect(await queued()).toEqual([pending]);
      const columns = Object.keys(await db.knex('log_entries').columnInfo());
      expect(columns).not.toContain('leaf_index');
      expect(columns).not.toContain('anchored_at');

      // any writer's new entry is queued by the database itself
      const bytes = randomBytes(32);
      const id = await addReceipt(bytes);
      const [row] = (await db
        .knex('log_entries')
        .insert({ receipt_id: id, entry: bytes, leaf_hash: Buffer.from(refLeafHash(bytes)) })
        .returning('seq')) as { seq: string | number }[];
      expect(await queued()).toEqual([pending, Number(row!.seq)]);
    } finally {
      await closeStore(db, store);
    }
  });
});

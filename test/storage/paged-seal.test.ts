import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorService } from '../../src/anchoring/anchor-service.js';
import { verifyCheckpoint } from '../../src/anchoring/checkpoint.js';
import { createSigner } from '../../src/receipts/signer.js';
import { noteSignerOf } from '../../src/services.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { mth, refLeafHash } from '../helpers/merkle-reference.js';

/**
 * A seal larger than one page (4,096 entries) is still one checkpoint: the pages are appended in
 * one transaction, each on the nodes of the one before, and the root is RFC 9162's over all.
 * The pages are read and hashed before that transaction, and written only if no other seal
 * committed meanwhile.
 */
const ORIGIN = 'test.example/paged';
let ctx: TestContext;
let service: AnchorService;
let signer: ReturnType<typeof createSigner>;
const entries: Buffer[] = [];

/** `n` pending receipt entries, inserted in order (seq order is log order). */
async function addPending(n: number): Promise<void> {
  const rows = Array.from({ length: n }, () => {
    const entry = randomBytes(32);
    entries.push(entry);
    return { id: crypto.randomUUID(), entry };
  });
  await ctx.db.knex('receipts').insert(
    rows.map((r) => ({
      id: r.id,
      tenant: 'paged',
      body: {},
      receipt_hash: `sha256:${r.entry.toString('hex')}`,
      created_at: new Date(),
      has_proof_artifact: true,
    })),
  );
  // one multi-row insert per 1,000: seq is drawn row by row, in the order of the rows
  for (let i = 0; i < rows.length; i += 1_000) {
    await ctx.db.knex('log_entries').insert(
      rows.slice(i, i + 1_000).map((r) => ({
        receipt_id: r.id,
        entry: r.entry,
        leaf_hash: Buffer.from(refLeafHash(r.entry)),
      })),
    );
  }
}

/** Each log entry's row version (xmin changes whenever a row is updated). */
async function rowVersions(): Promise<string[]> {
  const rows = (await ctx.db.knex.raw('select xmin::text as v from log_entries order by seq')) as {
    rows: { v: string }[];
  };
  return rows.rows.map((r) => r.v);
}

beforeAll(async () => {
  ctx = await createTestContext();
  signer = createSigner(ed25519Pem());
  const key = new Uint8Array(Buffer.from(signer.publicJwk.x, 'base64url'));
  service = new AnchorService(ctx.repos.log, noteSignerOf(signer, ORIGIN), ORIGIN, async () => [
    key,
  ]);
}, 60_000);
afterAll(async () => ctx.close());

describe('a seal of more than one page', () => {
  it('seals 9,000 entries (three pages) into one checkpoint over all of them', async () => {
    await addPending(9_000);
    const written = await rowVersions();
    expect(await service.sealOnce()).toEqual({ sealed: 9_000, treeSize: 9_000 });
    // entries are written once: the seal queued them out and placed them without an UPDATE
    expect(await rowVersions()).toEqual(written);
    expect(await ctx.repos.log.pendingCount()).toBe(0);
    const latest = await ctx.repos.log.latestCheckpoint();
    expect(latest?.treeSize).toBe(9_000);
    expect(Buffer.from(latest!.rootHash)).toEqual(Buffer.from(mth(entries.map(refLeafHash))));
    const checkpoints = await ctx.db.knex('log_checkpoints').count({ n: '*' }).first();
    expect(Number(checkpoints?.n)).toBe(1);
    const key = new Uint8Array(Buffer.from(signer.publicJwk.x, 'base64url'));
    expect(verifyCheckpoint(latest!.note, { keyName: ORIGIN, publicKey: key })).toMatchObject({
      treeSize: 9_000,
    });
    const positions = (await ctx.db
      .knex('log_entries as e')
      .leftJoin('log_leaves as l', 'l.seq', 'e.seq')
      .select('l.leaf_index')
      .orderBy('e.seq')) as { leaf_index: string | number }[];
    expect(positions.map((p) => Number(p.leaf_index))).toEqual(entries.map((_, i) => i));
  }, 120_000);

  it('stops at its limit across a page boundary, and the next seal extends the same tree', async () => {
    await addPending(5_000);
    expect(await service.sealOnce(4_500)).toEqual({ sealed: 4_500, treeSize: 13_500 });
    expect(await service.sealOnce()).toEqual({ sealed: 500, treeSize: 14_000 });
    const latest = await ctx.repos.log.latestCheckpoint();
    expect(Buffer.from(latest!.rootHash)).toEqual(Buffer.from(mth(entries.map(refLeafHash))));
  }, 120_000);

  it('a seal overtaken by another between its reading and its writing writes nothing, then starts again', async () => {
    await addPending(10);
    const log = ctx.repos.log;
    let overtaken = false;
    const racing = Object.create(log) as typeof log;
    // another replica's seal commits after this one read the queue, before it writes
    racing.commitSeal = async (seal) => {
      if (!overtaken) {
        overtaken = true;
        expect(await service.sealOnce(4)).toEqual({ sealed: 4, treeSize: 14_004 });
      }
      return log.commitSeal(seal);
    };
    const key = new Uint8Array(Buffer.from(signer.publicJwk.x, 'base64url'));
    const late = new AnchorService(racing, noteSignerOf(signer, ORIGIN), ORIGIN, async () => [key]);
    expect(await late.sealOnce()).toEqual({ sealed: 6, treeSize: 14_010 });
    const latest = await ctx.repos.log.latestCheckpoint();
    expect(Buffer.from(latest!.rootHash)).toEqual(Buffer.from(mth(entries.map(refLeafHash))));
    expect(await ctx.repos.log.pendingCount()).toBe(0);
  }, 60_000);
});

import { expect, it } from 'vitest';
import type { Repositories } from '../../../src/storage/repositories.js';
import type { Contract } from './harness.js';
import { unique } from './harness.js';
import { seal } from './log-store.js';
import { logEntryOf, newReceipt, storedReceipt } from './receipt-fixtures.js';

/** `count` receipts of one tenant, one second apart from `start`, oldest first. */
async function insertSeries(stores: Repositories, tenant: string, count: number, start: Date) {
  const receipts = Array.from({ length: count }, (_, i) =>
    storedReceipt({ createdAt: new Date(start.getTime() + i * 1_000) }),
  );
  for (const receipt of receipts) await stores.receipts.insert(newReceipt(tenant, receipt));
  return receipts;
}

/** Every id of the tenant's list, paged `limit` at a time. */
async function listAll(stores: Repositories, tenant: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await stores.receipts.list(tenant, limit, cursor);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/**
 * ReceiptStore (src/receipts/ports.ts): what issuance, later verification, the public status and
 * `GET /receipts` rely on.
 */
export const receiptStoreContract: Contract = (stores) => {
  it('reads back an inserted receipt exactly, with its row state', async () => {
    const tenant = unique('tenant');
    const receipt = storedReceipt();
    expect(await stores().receipts.insert(newReceipt(tenant, receipt, { proof: true }))).toBe(
      'created',
    );
    const record = await stores().receipts.find(tenant, receipt.receiptId);
    expect(record).toMatchObject({
      id: receipt.receiptId,
      tenant,
      hasProofArtifact: true,
      externalId: null,
      revokedAt: null,
      revokedBy: null,
      revocationAudit: null,
      revocationEntry: null,
      anchor: { leafIndex: null, anchoredAt: null },
    });
    expect(record?.receipt).toEqual(receipt);
    expect(record?.createdAt.toISOString()).toBe(receipt.createdAt);
    expect(record?.anchor.leafHash?.equals(logEntryOf(receipt).leafHash)).toBe(true);
  });

  it('keeps an unsigned receipt unsigned, and a receipt without proof artifact out of the log', async () => {
    const tenant = unique('tenant');
    const receipt = storedReceipt({ signed: false });
    await stores().receipts.insert(newReceipt(tenant, receipt));
    const record = await stores().receipts.find(tenant, receipt.receiptId);
    expect(record?.receipt).toEqual(receipt);
    expect(record?.receipt.receiptSignature).toBeUndefined();
    expect(record).toMatchObject({ hasProofArtifact: false, anchor: { leafHash: null } });
  });

  it("answers another tenant's receipt as it answers a missing one", async () => {
    const tenant = unique('tenant');
    const receipt = storedReceipt();
    await stores().receipts.insert(newReceipt(tenant, receipt, { externalId: 'run-1' }));
    expect(await stores().receipts.find(unique('other'), receipt.receiptId)).toBeUndefined();
    expect(await stores().receipts.find(tenant, storedReceipt().receiptId)).toBeUndefined();
    expect(await stores().receipts.findByExternalId(unique('other'), 'run-1')).toBeUndefined();
    expect((await stores().receipts.findByExternalId(tenant, 'run-1'))?.id).toBe(receipt.receiptId);
  });

  it('finds any tenant’s receipt by its hash (the public status), and nothing for an unknown hash', async () => {
    const receipt = storedReceipt();
    const tenant = unique('tenant');
    await stores().receipts.insert(newReceipt(tenant, receipt));
    const record = await stores().receipts.findByHash(receipt.receiptHash);
    expect(record).toMatchObject({ id: receipt.receiptId, tenant });
    expect(await stores().receipts.findByHash(storedReceipt().receiptHash)).toBeUndefined();
  });

  it('refuses a second receipt for a taken (tenant, externalId) as a result, keeping the first', async () => {
    const tenant = unique('tenant');
    const first = storedReceipt();
    const second = storedReceipt();
    await stores().receipts.insert(newReceipt(tenant, first, { externalId: 'run-7' }));
    expect(
      await stores().receipts.insert(newReceipt(tenant, second, { externalId: 'run-7' })),
    ).toBe('duplicate_external_id');
    expect(await stores().receipts.find(tenant, second.receiptId)).toBeUndefined();
    expect((await stores().receipts.findByExternalId(tenant, 'run-7'))?.id).toBe(first.receiptId);
    const elsewhere = storedReceipt();
    expect(
      await stores().receipts.insert(
        newReceipt(unique('tenant'), elsewhere, { externalId: 'run-7' }),
      ),
    ).toBe('created');
  });

  it('lets exactly one of concurrent inserts with one externalId through', async () => {
    const tenant = unique('tenant');
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        stores().receipts.insert(newReceipt(tenant, storedReceipt(), { externalId: 'run-race' })),
      ),
    );
    expect(results.filter((r) => r === 'created')).toHaveLength(1);
  });

  it('lists newest first, paged without duplicates or gaps, with the signed createdAt', async () => {
    const tenant = unique('tenant');
    const receipts = await insertSeries(stores(), tenant, 7, new Date('2025-01-01T00:00:00Z'));
    const newestFirst = receipts.map((r) => r.receiptId).reverse();
    expect(await listAll(stores(), tenant, 3)).toEqual(newestFirst);
    expect(await listAll(stores(), tenant, 7)).toEqual(newestFirst);
    const { items, nextCursor } = await stores().receipts.list(tenant, 10, undefined);
    expect(nextCursor).toBeUndefined();
    expect(items[0]).toEqual({
      id: receipts[6]?.receiptId,
      decision: 'ALLOW',
      createdAt: receipts[6]?.createdAt,
      revoked: false,
      anchored: false,
    });
    expect((await stores().receipts.list(unique('other'), 10, undefined)).items).toEqual([]);
  });

  it('orders receipts of one instant by id, and a newer insert never shifts later pages', async () => {
    const tenant = unique('tenant');
    const at = new Date('2025-02-01T00:00:00Z');
    const same = Array.from({ length: 4 }, () => storedReceipt({ createdAt: at }));
    for (const receipt of same) await stores().receipts.insert(newReceipt(tenant, receipt));
    const first = await stores().receipts.list(tenant, 2, undefined);
    await stores().receipts.insert(
      newReceipt(tenant, storedReceipt({ createdAt: new Date('2025-03-01T00:00:00Z') })),
    );
    const second = await stores().receipts.list(tenant, 2, first.nextCursor);
    const seen = [...first.items, ...second.items].map((item) => item.id);
    expect(seen).toEqual(
      same
        .map((r) => r.receiptId)
        .sort()
        .reverse(),
    );
    expect(second.nextCursor).toBeUndefined();
  });

  it('starts from the newest receipt for a cursor it did not write', async () => {
    const tenant = unique('tenant');
    const receipts = await insertSeries(stores(), tenant, 2, new Date('2025-04-01T00:00:00Z'));
    for (const cursor of ['garbage', Buffer.from('["1","x"]').toString('base64url')]) {
      const page = await stores().receipts.list(tenant, 5, cursor);
      expect(page.items.map((item) => item.id)).toEqual([
        receipts[1]?.receiptId,
        receipts[0]?.receiptId,
      ]);
    }
  });

  it('narrows the list by every filter, combined', async () => {
    const tenant = unique('tenant');
    const jan = storedReceipt({ createdAt: new Date('2025-01-10T00:00:00Z'), bundleId: 'b-1' });
    const feb = storedReceipt({ createdAt: new Date('2025-02-10T00:00:00Z'), decision: 'FLAG' });
    const mar = storedReceipt({ createdAt: new Date('2025-03-10T00:00:00Z'), decision: 'BLOCK' });
    await stores().receipts.insert(newReceipt(tenant, jan));
    await stores().receipts.insert(newReceipt(tenant, feb, { externalId: 'run-feb' }));
    await stores().receipts.insert(newReceipt(tenant, mar));
    const ids = async (filters: Parameters<Repositories['receipts']['list']>[3]) =>
      (await stores().receipts.list(tenant, 10, undefined, filters)).items.map((i) => i.id);
    expect(await ids({ decision: 'FLAG' })).toEqual([feb.receiptId]);
    expect(await ids({ status: 'clean' })).toEqual([jan.receiptId]);
    expect(await ids({ status: 'failure' })).toEqual([mar.receiptId]);
    expect(await ids({ status: 'revoked' })).toEqual([]);
    expect(await ids({ bundleId: 'b-1' })).toEqual([jan.receiptId]);
    expect(
      await ids({ docHash: mar.subject.kind === 'ron-document' ? mar.subject.docHash : '' }),
    ).toEqual([mar.receiptId]);
    expect(await ids({ externalId: 'run-feb' })).toEqual([feb.receiptId]);
    const after = new Date('2025-01-10T00:00:00Z');
    const before = new Date('2025-03-10T00:00:00Z');
    expect(await ids({ createdAfter: after })).toEqual([mar.receiptId, feb.receiptId]);
    expect(await ids({ createdBefore: before })).toEqual([feb.receiptId, jan.receiptId]);
    expect(await ids({ createdAfter: after, createdBefore: before })).toEqual([feb.receiptId]);
    expect(await ids({ createdAfter: after, decision: 'ALLOW' })).toEqual([]);
  });

  it('names, in one read, those of a set of receipts that a seal placed in the log', async () => {
    const tenant = unique('tenant');
    const other = unique('tenant');
    const placed = [storedReceipt(), storedReceipt()];
    for (const receipt of placed) {
      await stores().receipts.insert(newReceipt(tenant, receipt, { proof: true }));
    }
    const elsewhere = storedReceipt();
    await stores().receipts.insert(newReceipt(other, elsewhere, { proof: true }));
    const noProof = storedReceipt();
    await stores().receipts.insert(newReceipt(tenant, noProof));
    const asked = [...placed, elsewhere, noProof].map((r) => r.receiptId);
    expect(await stores().receipts.sealedAmong(asked)).toEqual(new Set());
    await seal(stores(), 10_000);
    const waiting = storedReceipt();
    await stores().receipts.insert(newReceipt(tenant, waiting, { proof: true }));
    const sealed = await stores().receipts.sealedAmong([
      ...asked,
      waiting.receiptId,
      placed[0]!.receiptId, // asked twice: named once
      elsewhere.receiptId.toUpperCase(), // spelled otherwise: named as asked
      'not-a-uuid',
      '00000000-0000-4000-8000-000000000000',
    ]);
    // any tenant's: the waiters read their own receipt again, under their tenant, once named
    expect(sealed).toEqual(
      new Set([
        ...[...placed, elsewhere].map((r) => r.receiptId),
        elsewhere.receiptId.toUpperCase(),
      ]),
    );
    expect(await stores().receipts.sealedAmong([])).toEqual(new Set());
  });
};

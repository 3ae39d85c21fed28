import { createHash, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { RevocationRequest } from '../../../src/receipts/ports.js';
import type { Repositories } from '../../../src/storage/repositories.js';
import type { Contract } from './harness.js';
import { unique } from './harness.js';
import { newReceipt, storedReceipt } from './receipt-fixtures.js';

/** A revocation by `issuerId`, whose log entry names the receipt hash it is given. */
function request(tenant: string, receiptId: string, issuerId = 'issuer-1'): RevocationRequest {
  return {
    tenant,
    receiptId,
    issuerId,
    apiKeyId: randomUUID(),
    signatureTimestamp: '2025-01-01T00:00:00Z',
    issuerSignature: 'c2lnbmF0dXJl',
    logEntry: (receiptHash) => {
      const entry = Buffer.from(`revokes ${receiptHash}\n`);
      return { entry, leafHash: createHash('sha256').update(entry).digest() };
    },
  };
}

async function stored(stores: Repositories) {
  const tenant = unique('tenant');
  const receipt = storedReceipt();
  await stores.receipts.insert(newReceipt(tenant, receipt));
  return { tenant, receipt };
}

/** RevocationStore (src/receipts/ports.ts): what `POST /receipt/{id}/revoke` relies on. */
export const revocationStoreContract: Contract = (stores) => {
  it('revokes once: the row, its audit and its log entry (over the stored hash) together', async () => {
    const { tenant, receipt } = await stored(stores());
    expect(await stores().revocations.revoke(request(tenant, receipt.receiptId))).toBe('REVOKED');
    const record = await stores().receipts.find(tenant, receipt.receiptId);
    expect(record?.revokedBy).toBe('issuer-1');
    expect(record?.revokedAt).toBeInstanceOf(Date);
    expect(record?.revocationAudit).toMatchObject({ issuerId: 'issuer-1' });
    expect(record?.revocationEntry?.entry.toString()).toBe(`revokes ${receipt.receiptHash}\n`);
    expect(record?.revocationEntry?.leafIndex).toBeNull();
    const [item] = (await stores().receipts.list(tenant, 10, undefined)).items;
    expect(item?.revoked).toBe(true);
    const revoked = await stores().receipts.list(tenant, 10, undefined, { status: 'revoked' });
    expect(revoked.items.map((i) => i.id)).toEqual([receipt.receiptId]);
    const clean = await stores().receipts.list(tenant, 10, undefined, { status: 'clean' });
    expect(clean.items).toEqual([]);
  });

  it('is idempotent: a second revocation is ALREADY_REVOKED and changes nothing', async () => {
    const { tenant, receipt } = await stored(stores());
    await stores().revocations.revoke(request(tenant, receipt.receiptId));
    const before = await stores().receipts.find(tenant, receipt.receiptId);
    const again = await stores().revocations.revoke(request(tenant, receipt.receiptId, 'issuer-2'));
    expect(again).toBe('ALREADY_REVOKED');
    const after = await stores().receipts.find(tenant, receipt.receiptId);
    expect(after?.revokedBy).toBe('issuer-1');
    expect(after?.revokedAt?.getTime()).toBe(before?.revokedAt?.getTime());
  });

  it("answers NOT_FOUND for another tenant's receipt or an unknown id, revoking nothing", async () => {
    const { tenant, receipt } = await stored(stores());
    const other = await stores().revocations.revoke(request(unique('other'), receipt.receiptId));
    expect(other).toBe('NOT_FOUND');
    expect((await stores().receipts.find(tenant, receipt.receiptId))?.revokedAt).toBeNull();
    const unknown = await stores().revocations.revoke(request(tenant, storedReceipt().receiptId));
    expect(unknown).toBe('NOT_FOUND');
  });

  it('lets exactly one of concurrent revocations win', async () => {
    const { tenant, receipt } = await stored(stores());
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        stores().revocations.revoke(request(tenant, receipt.receiptId, `issuer-${i}`)),
      ),
    );
    expect(outcomes.filter((o) => o === 'REVOKED')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'ALREADY_REVOKED')).toHaveLength(7);
  });
};

import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';

/**
 * The renewal lease of kept PDFs (`claimForRenewal`): a claim takes at most its limit of the due
 * rows, soonest first; a concurrent claim takes other rows; a held lease keeps a row from every
 * claim until it passes; a renewal releases it.
 */
const DAY = 86_400_000;
const now = new Date('2030-01-01T00:00:00Z');
const at = (days: number) => new Date(now.getTime() + days * DAY);

describe('receipt_pdfs renewal lease', () => {
  it('claims the due rows once, soonest first, until the lease passes or a renewal releases it', async ({
    ctx,
  }) => {
    const pdfs = ctx.repos.receiptPdfs;
    for (let i = 0; i < 8; i++) {
      await pdfs.put(`lease-${i}`, 'issued', {
        receiptHash: `h${i}`,
        pdf: Buffer.from(`pdf ${i}`),
        archiveExpiresAt: at(i + 1),
      });
    }
    // not due: ends after `before`
    await pdfs.put('lease-late', 'issued', {
      receiptHash: 'late',
      pdf: Buffer.from('late'),
      archiveExpiresAt: at(400),
    });
    const before = at(90);
    const lease = at(0.04);
    const first = await pdfs.claimForRenewal(before, now, lease, 3);
    expect(first.map((d) => d.receiptId)).toEqual(['lease-0', 'lease-1', 'lease-2']);
    const [second, third] = await Promise.all([
      pdfs.claimForRenewal(before, now, lease, 3),
      pdfs.claimForRenewal(before, now, lease, 3),
    ]);
    const ids = [...first, ...second!, ...third!].map((d) => d.receiptId);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect(await pdfs.claimForRenewal(before, now, lease, 10)).toEqual([]);

    // a renewal releases its row's lease; the renewed row is due again only by its new date
    const renewed = first[0]!;
    expect(
      await pdfs.renew(renewed, {
        receiptHash: renewed.receiptHash,
        pdf: Buffer.from('renewed'),
        archiveExpiresAt: at(30),
      }),
    ).toBe(true);
    const again = await pdfs.claimForRenewal(before, now, lease, 10);
    expect(again.map((d) => [d.receiptId, d.pdf.toString()])).toEqual([['lease-0', 'renewed']]);

    // past the lease, every row not renewed is claimable again
    const later = new Date(lease.getTime() + 1000);
    const retried = await pdfs.claimForRenewal(before, later, at(1), 10);
    expect(retried.map((d) => d.receiptId)).toEqual([
      'lease-1',
      'lease-2',
      'lease-3',
      'lease-4',
      'lease-5',
      'lease-6',
      'lease-7',
      'lease-0',
    ]);
  });
});

import { readBundle } from '@verification-receipts/verify';
import { describe, expect, it } from 'vitest';
import { renderReceiptPdf } from '../../src/pdf/receipt-pdf.js';
import type { ReceiptView } from '../../src/receipts/types.js';
import { blockedView, cleanView, manyChecksView, revokedView } from '../pdf/fixtures.js';

/**
 * The verifier binds a PDF receipt to its attached bundle through the text printed on the page:
 * the service's renderer must print the receipt id and the full receipt hash, each on one line,
 * in a form the verifier's text extraction reads back.
 */
describe('text printed on a PDF receipt, as the verifier reads it', () => {
  const views: Array<[string, () => ReceiptView]> = [
    ['clean', cleanView],
    ['blocked (unsigned, relative URLs)', blockedView],
    ['revoked', revokedView],
    ['many checks (several pages)', manyChecksView],
  ];

  for (const [name, make] of views) {
    it(`${name}: has the receipt id and hash on one line each, and the bundle attached`, async () => {
      const view = make();
      view.bundle = { receipt: { receiptId: view.receipt.receiptId } };
      const pdf = await renderReceiptPdf(view, { generatedAt: new Date('2025-03-14T15:12:00Z') });
      const read = await readBundle(new Uint8Array(pdf));
      expect(read.ok, read.ok ? '' : read.reason).toBe(true);
      if (!read.ok) return;
      expect(read.from).toBe('pdf');
      expect(read.bundle).toEqual(view.bundle);
      const lines = read.printed?.text.split('\n') ?? [];
      const { receiptId, receiptHash } = view.receipt;
      expect(receiptHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(lines).toContain(receiptId);
      expect(lines).toContain(receiptHash);
    });
  }
});

import { z } from 'zod';

export const ReceiptIdParams = z.object({
  receiptId: z.uuid().describe('Receipt id (uuid)'),
});

/** A repeated query parameter (`?limit=1&limit=2`) counts as its first value. */
const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const lenientString = z.preprocess(
  (value) => (typeof firstValue(value) === 'string' ? firstValue(value) : undefined),
  z.string().optional(),
);

/** decisions.md: this query never gives 400. Out-of-range limits are clamped, garbage ignored. */
export const ListQuery = z.object({
  limit: lenientString.describe('Page size, default 50, clamped to 1..200').transform((v) => {
    const n = v === undefined ? NaN : Number.parseInt(v, 10);
    return Number.isFinite(n) ? Math.min(200, Math.max(1, n)) : 50;
  }),
  cursor: lenientString.describe('Opaque cursor from the previous page (x-next-cursor header)'),
});

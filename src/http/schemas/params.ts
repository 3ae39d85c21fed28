import { z } from 'zod';
import type { ListFilters } from '../../receipts/ports.js';

export const ReceiptIdParams = z.object({
  receiptId: z.uuid().describe('Receipt id (uuid)'),
});

/** A repeated query parameter (`?limit=1&limit=2`) counts as its first value. */
export const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const lenientString = z.preprocess(
  (value) => (typeof firstValue(value) === 'string' ? firstValue(value) : undefined),
  z.string().optional(),
);

/** docs/decisions/0017-the-receipts-list-never-answers-400.md: this query never gives 400. Out-of-range limits are clamped, garbage ignored. */
export const ListQuery = z.object({
  limit: lenientString.describe('Page size, default 50, clamped to 1..200').transform((v) => {
    const n = v === undefined ? NaN : Number.parseInt(v, 10);
    return Number.isFinite(n) ? Math.min(200, Math.max(1, n)) : 50;
  }),
  cursor: lenientString.describe('Opaque cursor from the previous page (x-next-cursor header)'),
  status: lenientString
    .describe('clean, compliance_gap, failure or revoked (other values are ignored)')
    .transform((v) => (v && STATUSES.has(v) ? (v as ListFilters['status']) : undefined)),
  decision: lenientString
    .describe('ALLOW, FLAG or BLOCK (other values are ignored)')
    .transform((v) => (v && DECISIONS.has(v) ? (v as ListFilters['decision']) : undefined)),
  bundleId: lenientString.describe('RON receipts of this bundleId').transform(bounded),
  docHash: lenientString
    .describe('RON receipts of this document: sha256:<hex> or the 64 hex digits')
    .transform((v) => {
      const hex = v?.replace(/^sha256:/, '').toLowerCase();
      return hex && /^[0-9a-f]{64}$/.test(hex) ? `sha256:${hex}` : undefined;
    }),
  externalId: lenientString.describe('The CI receipt of this externalId').transform(bounded),
  createdAfter: lenientString.describe('RFC 3339 time: receipts created after it').transform(time),
  createdBefore: lenientString
    .describe('RFC 3339 time: receipts created before it')
    .transform(time),
});

/** A paged list's ?limit= (clamped) and ?cursor= (at most 512 characters, else 400). */
export const PageQuery = z.object({
  limit: z
    .preprocess(firstValue, z.string().optional())
    .describe('Page size, default 50, clamped to 1..200')
    .transform((v) => {
      const n = v === undefined ? NaN : Number.parseInt(v, 10);
      return Number.isFinite(n) ? Math.min(200, Math.max(1, n)) : 50;
    }),
  cursor: z
    .preprocess(firstValue, z.string().max(512).optional())
    .describe('Opaque cursor from the previous page (x-next-cursor header)'),
});

const STATUSES = new Set(['clean', 'compliance_gap', 'failure', 'revoked']);
const DECISIONS = new Set(['ALLOW', 'FLAG', 'BLOCK']);

/** A filter value longer than any stored id cannot match: ignored, like other odd values. */
function bounded(value: string | undefined): string | undefined {
  return value && value.length <= 256 ? value : undefined;
}

function time(value: string | undefined): Date | undefined {
  if (!value || value.length > 64 || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at);
}

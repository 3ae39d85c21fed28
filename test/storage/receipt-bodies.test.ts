import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { issueValidRon } from '../helpers/ron.js';

/**
 * A receipt's body is stored as it is, inline and uncompressed (migration 014): compressing
 * about 2 KB of JSONB on every insert, and decompressing it on every read, costs more database
 * CPU than the space it saves is worth (with compression, `pglz_compress` is 12% of PostgreSQL's
 * CPU under issuance load).
 */
describe('receipt bodies in the store', () => {
  it('are kept uncompressed and in the row, and read back whole', async ({ ctx, key }) => {
    const issued = await issueValidRon(ctx, key);
    expect(issued.statusCode).toBe(200);
    const { receiptId } = issued.json<{ receiptId: string }>();
    const row = (await ctx.db.knex.raw(
      `select pg_column_compression(body) as compression, octet_length(body::text) as size
         from receipts where id = ?`,
      [receiptId],
    )) as { rows: { compression: string | null; size: number }[] };
    const [stored] = row.rows;
    // large enough that PostgreSQL's default (toast_tuple_target of about 2 KB) compresses it
    expect(Number(stored?.size)).toBeGreaterThan(1_900);
    expect(stored?.compression).toBeNull();
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/receipt/${receiptId}`,
      headers: { 'x-api-key': key },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ receiptHash: string }>().receiptHash).toBe(
      issued.json<{ receiptHash: string }>().receiptHash,
    );
  });
});

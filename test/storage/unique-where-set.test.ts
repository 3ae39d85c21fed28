import { describe, expect } from 'vitest';
import type { TestContext } from '../helpers/context.js';
import { it } from '../helpers/fixtures.js';

/**
 * Unique keys that most rows leave empty are indexed only where set (migrations 015 and 016):
 * a receipt without an external id, or a log entry that revokes nothing, adds no index entry,
 * and two rows with the same set key are still refused.
 */
/** This store's index only: other test files' schemas have the same names and drop them meanwhile. */
const indexDefinition = async (ctx: TestContext, name: string): Promise<string> => {
  const rows = (await ctx.db
    .knex('pg_indexes')
    .where({ indexname: name })
    .whereRaw('schemaname = current_schema()')
    .select('indexdef')) as { indexdef: string }[];
  return rows.map((r) => r.indexdef).join('\n');
};

describe('unique keys indexed only where set', () => {
  it.for<[string, string]>([
    ['receipts_tenant_external_id', 'WHERE (external_id IS NOT NULL)'],
    ['log_entries_revokes_unique', 'WHERE (revokes IS NOT NULL)'],
  ])('%s is a partial unique index', async ([name, condition], { ctx }) => {
    const definition = await indexDefinition(ctx, name);
    expect(definition).toContain('CREATE UNIQUE INDEX');
    expect(definition).toContain(condition);
  });

  it('still refuses a second receipt with the same tenant and external id', async ({ ctx }) => {
    const row = (id: string) => ({
      id,
      tenant: 't',
      body: {},
      receipt_hash: `sha256:${'ab'.repeat(32)}`,
      created_at: new Date(),
      has_proof_artifact: false,
      external_id: 'run-1',
    });
    await ctx.db.knex('receipts').insert(row(crypto.randomUUID()));
    await expect(ctx.db.knex('receipts').insert(row(crypto.randomUUID()))).rejects.toThrow(
      /receipts_tenant_external_id/,
    );
  });
});

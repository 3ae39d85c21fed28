import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import * as m024 from '../../src/storage/migrations/024_proven_ci_receipts.js';
import { migrate } from '../../src/storage/migrations/index.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, testStore } from '../helpers/context.js';

/**
 * Migration 024: the index of proven CI receipts is built over the receipts already stored, so
 * the gate's lookup finds a receipt written before it (nothing to backfill); its `down` restores
 * the index it replaced.
 */
const SHA = 'e'.repeat(40);

/** A CI receipt row as an older version wrote it (hand-written body, unsigned). */
function row(identity: Record<string, unknown> | undefined, identityStatus: string) {
  const id = randomUUID();
  return {
    id,
    tenant: 'tenant-b',
    body: {
      receiptVersion: '1.0',
      receiptId: id,
      createdAt: new Date().toISOString(),
      policyProfile: 'ci-provenance-v1',
      inputsCommitment: `sha256:${'1'.repeat(64)}`,
      subject: {
        kind: 'ci-workflow-run',
        externalId: `victim-org/app/${id}`,
        headSha: SHA,
        repository: 'victim-org/app',
        eventName: 'push',
        subjectKind: 'workflow_run',
        summary: 'release',
        ...(identity ? { identity } : {}),
      },
      checks: [{ checkId: 'ci.identity', status: identityStatus }],
      decision: identityStatus === 'PASS' ? 'ALLOW' : 'BLOCK',
      reasons: [],
    },
    receipt_hash: `sha256:${randomUUID().replaceAll('-', '').padEnd(64, '0')}`,
    created_at: new Date(),
    has_proof_artifact: false,
  };
}

describe('migration 024', () => {
  it('indexes the proven CI receipts stored before it, and goes back', async () => {
    const store = testStore({ blank: true });
    const db = await openDatabase(store, { migrate: false });
    try {
      await migrate(db.knex, '023_receipt_state_detail');
      const proven = row(
        { source: 'oidc', issuer: 'https://token.actions.githubusercontent.com' },
        'PASS',
      );
      // the form an older version recorded a mismatched token in: source oidc, check failed
      const claimed = row({ source: 'oidc' }, 'FAIL');
      await db.knex('receipts').insert([proven, claimed]);
      await migrate(db.knex);
      const found = await createRepositories(db).receipts.findProvenCiForCommit(
        { repository: 'victim-org/app', headSha: SHA, tenant: 'github-installation-1' },
        50,
      );
      expect(found.map((r) => r.id)).toEqual([proven.id]);

      await m024.down(db.knex);
      const indexes = (await db
        .knex('pg_indexes')
        .whereRaw('schemaname = current_schema()')
        .where({ tablename: 'receipts' })
        .pluck('indexname')) as string[];
      expect(indexes).toContain('receipts_ci_head_sha');
      expect(indexes).not.toContain('receipts_proven_ci');
    } finally {
      await closeStore(db, store);
    }
  });
});

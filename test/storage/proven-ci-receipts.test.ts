import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { describe, expect } from 'vitest';
import type { CiIdentityEvidence } from '../../src/receipts/ci-identity/identity.js';
import { ciProofOf } from '../../src/receipts/ci-proof.js';
import type { TestContext } from '../helpers/context.js';
import { it } from '../helpers/fixtures.js';

/**
 * The deployment gate's lookup (`findProvenCiForCommit`, migration 024): proof, repository and
 * commit are conditions of the query, served by the partial index `receipts_proven_ci`, so the
 * receipts that prove nothing are never read; the query's condition selects exactly the receipts
 * the domain's `ciProofOf` calls proven.
 */
const REPO = 'victim-org/app';
const commit = () => randomBytes(20).toString('hex');

async function issue(
  ctx: TestContext,
  tenant: string,
  headSha: string,
  identity: CiIdentityEvidence,
  repository = REPO,
) {
  const run = String(Math.floor(Math.random() * 1e9));
  const { record } = await ctx.app.services.receipts.issueCi(
    tenant,
    {
      externalId: `${repository}/${run}/1`,
      headSha,
      subject: { kind: 'workflow_run', summary: 'release' },
      repository: { fullName: repository },
      provenance: { eventName: 'push' },
    },
    { identity },
  );
  return record;
}

const claimsOf = (headSha: string, repository: string) => ({
  issuer: 'https://token.actions.githubusercontent.com',
  repository,
  sha: headSha,
  event_name: 'push',
  jti: randomUUID(),
  exp: Math.floor(Date.now() / 1000) + 600,
});
const token = (headSha: string, repository: string): CiIdentityEvidence => ({
  kind: 'oidc-valid',
  claims: claimsOf(headSha, repository),
});

/** Every kind of CI receipt about REPO at `sha`, of two tenants. */
async function everyKind(ctx: TestContext, sha: string) {
  const app: CiIdentityEvidence = { kind: 'github-app', installationId: 7 };
  return Promise.all([
    issue(ctx, 'github-installation-7', sha, app),
    issue(ctx, 'tenant-b', sha, app),
    issue(ctx, 'tenant-b', sha, { kind: 'none' }),
    issue(ctx, 'tenant-b', sha, { kind: 'oidc-invalid', reason: 'expired' }),
    issue(ctx, 'tenant-b', sha, token(sha, 'attacker-org/tool')),
    issue(ctx, 'tenant-b', sha, { kind: 'oidc-replayed', claims: claimsOf(sha, REPO) }),
  ]);
}

describe('the proven CI receipts of a commit', () => {
  it("selects exactly the receipts ciProofOf calls proven, and App proof only in the gate's tenant", async ({
    ctx,
  }) => {
    const sha = commit();
    const records = await everyKind(ctx, sha);
    const found = await ctx.app.services.stores.receipts.findProvenCiForCommit(
      { repository: 'Victim-Org/App', headSha: sha, tenant: 'github-installation-7' },
      50,
    );
    const proven = records.filter((r) => ciProofOf(r.receipt) !== undefined);
    const inTenant = proven.filter(
      (r) => ciProofOf(r.receipt)?.source === 'oidc' || r.tenant === 'github-installation-7',
    );
    expect(found.map((r) => r.id).sort()).toEqual(inTenant.map((r) => r.id).sort());
    expect(found).toHaveLength(1);
  });

  it('the query is served by the partial index of proven receipts', async ({ ctx }) => {
    const sha = commit();
    await everyKind(ctx, sha);
    const captured: { sql: string; bindings: unknown[] }[] = [];
    const listener = (query: { sql: string; bindings?: unknown[] }) =>
      captured.push({ sql: query.sql, bindings: query.bindings ?? [] });
    ctx.db.knex.on('query', listener);
    try {
      await ctx.app.services.stores.receipts.findProvenCiForCommit(
        { repository: REPO, headSha: sha, tenant: 'github-installation-7' },
        50,
      );
    } finally {
      ctx.db.knex.off('query', listener);
    }
    const lookup = captured.find((q) => q.sql.includes("'ci-workflow-run'"));
    expect(lookup).toBeDefined();
    const plan = await ctx.db.knex.transaction(async (trx) => {
      // with so few rows a sequential scan is cheapest: ask which index the planner would use
      await trx.raw('set local enable_seqscan = off');
      // the captured statement is native ($1, $2, ... in order); knex binds `?`
      const sql = lookup!.sql.replace(/\$[0-9]+/g, '?');
      const rows = (await trx.raw(`explain ${sql}`, lookup!.bindings as Knex.RawBinding[])) as {
        rows: { 'QUERY PLAN': string }[];
      };
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('receipts_proven_ci');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.js';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { createServices } from '../../src/services.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { minimalRequest, samplePdf } from '../helpers/requests.js';

/**
 * What the service signs about a revocation comes from the log, checked against its signed
 * checkpoint, not from rows an attacker with SQL can delete: a revocation erased from the rows
 * (its `revocations` row, its entry and position rows, `revoked_at`) gets a 503 on every signed
 * path, logged and counted, never an "active" status or a PASSED attestation.
 */
const issuerPem = ed25519Pem();

async function setUp(): Promise<{ ctx: TestContext; key: string }> {
  const ctx = await createTestContext({ METRICS_TOKEN: 'scrape-secret' });
  const key = await ctx.apiKey(['verify', 'read', 'revoke']);
  await ctx.repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'tenant-a',
    publicKey: rawEd25519PublicKey(issuerPem),
  });
  return { ctx, key };
}

async function issue(ctx: TestContext, key: string): Promise<{ id: string; hash: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: minimalRequest({
      doc: { docHash: minimalRequest().doc.docHash, pdfBase64: samplePdf().toString('base64') },
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().receiptId, hash: res.json().receiptHash };
}

async function revoke(ctx: TestContext, key: string, id: string): Promise<void> {
  const h = signRevocation(issuerPem, 'escrow-co', id, new Date().toISOString());
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${id}/revoke`,
    headers: {
      'x-api-key': key,
      'x-issuer-id': h.issuerId,
      'x-signature-timestamp': h.timestamp,
      'x-issuer-signature': h.signature,
    },
  });
  expect(res.json()).toMatchObject({ result: 'REVOKED' });
}

/** The attacker's edit: the revocation's audit row, entry (with its position) and column gone. */
async function eraseRevocation(ctx: TestContext, id: string): Promise<void> {
  const { knex } = ctx.db;
  const entry = await knex('log_entries').where({ revokes: id }).first('seq');
  await knex('log_leaves').where({ seq: entry.seq }).delete();
  await knex('log_pending').where({ seq: entry.seq }).delete();
  await knex('log_entries').where({ seq: entry.seq }).delete();
  await knex('revocations').where({ receipt_id: id }).delete();
  await knex('receipts').where({ id }).update({ revoked_at: null, revoked_by: null });
}

const paths = (id: string, hash: string) => ({
  status: `/status/${hash}`,
  attestation: `/api/v1/receipt/${id}/attestation`,
  bundle: `/api/v1/receipt/${id}/bundle`,
  pdf: `/api/v1/receipt/${id}/pdf`,
});

async function failures(ctx: TestContext, use: string): Promise<number> {
  const res = await ctx.app.inject({
    url: '/metrics',
    headers: { authorization: 'Bearer scrape-secret' },
  });
  const m = new RegExp(`^receipt_integrity_failures_total\\{use="${use}"\\} (\\d+)$`, 'm').exec(
    res.body,
  );
  return Number(m?.[1] ?? 0);
}

/** Every signed path refuses the receipt: 503 ErrorResponse, each refusal counted. */
async function expectRefusedEverywhere(ctx: TestContext, key: string, id: string, hash: string) {
  for (const [use, url] of Object.entries(paths(id, hash))) {
    const before = await failures(ctx, use);
    const res = await ctx.app.inject({ url, headers: { 'x-api-key': key } });
    expect(res.statusCode, `${use}: ${res.body.slice(0, 300)}`).toBe(503);
    expect(res.json()).toMatchObject({ error: 'dependency_unavailable' });
    expect(await failures(ctx, use)).toBeGreaterThan(before);
  }
}

const statusOf = async (ctx: TestContext, hash: string) => {
  const res = await ctx.app.inject({ url: `/status/${hash}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().statement.status as string;
};

describe('a revocation is what the log says, checked against its signed checkpoint', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ({ ctx, key } = await setUp());
  });
  afterAll(async () => ctx.close());

  it('genuine states are signed: active, revoked while queued, revoked once sealed', async () => {
    const kept = await issue(ctx, key);
    const revoked = await issue(ctx, key);
    await ctx.app.services.anchoring.sealAll();
    await revoke(ctx, key, revoked.id);
    expect(await statusOf(ctx, revoked.hash)).toBe('revoked');
    await ctx.app.services.anchoring.sealAll();
    expect(await statusOf(ctx, revoked.hash)).toBe('revoked');
    expect(await statusOf(ctx, kept.hash)).toBe('active');
    for (const url of Object.values(paths(kept.id, kept.hash))) {
      const res = await ctx.app.inject({ url, headers: { 'x-api-key': key } });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('a sealed revocation erased from every row: 503 on status, attestation, bundle, PDF', async () => {
    const { id, hash } = await issue(ctx, key);
    await revoke(ctx, key, id);
    await ctx.app.services.anchoring.sealAll();
    expect(await statusOf(ctx, hash)).toBe('revoked');
    await eraseRevocation(ctx, id);
    await expectRefusedEverywhere(ctx, key, id, hash);
  });

  it('the revocation row deleted, its sealed entry kept: 503', async () => {
    const { id, hash } = await issue(ctx, key);
    await revoke(ctx, key, id);
    await ctx.app.services.anchoring.sealAll();
    await ctx.db.knex('revocations').where({ receipt_id: id }).delete();
    await ctx.db.knex('receipts').where({ id }).update({ revoked_at: null, revoked_by: null });
    await expectRefusedEverywhere(ctx, key, id, hash);
  });

  it("the entry's `revokes` column moved to another receipt: found by its bytes, 503", async () => {
    const { id, hash } = await issue(ctx, key);
    const decoy = await issue(ctx, key);
    await revoke(ctx, key, id);
    await ctx.app.services.anchoring.sealAll();
    await ctx.db.knex('log_entries').where({ revokes: id }).update({ revokes: decoy.id });
    await ctx.db.knex('revocations').where({ receipt_id: id }).delete();
    await ctx.db.knex('receipts').where({ id }).update({ revoked_at: null, revoked_by: null });
    await expectRefusedEverywhere(ctx, key, id, hash);
    // the decoy now carries an entry that names another receipt
    await expectRefusedEverywhere(ctx, key, decoy.id, decoy.hash);
  });

  it('a queued revocation without its revocation row, or a row without an entry: 503', async () => {
    const queued = await issue(ctx, key);
    await ctx.app.services.anchoring.sealAll();
    await revoke(ctx, key, queued.id);
    await ctx.db.knex('revocations').where({ receipt_id: queued.id }).delete();
    await expectRefusedEverywhere(ctx, key, queued.id, queued.hash);

    const marked = await issue(ctx, key);
    await ctx.db
      .knex('receipts')
      .where({ id: marked.id })
      .update({ revoked_at: new Date(), revoked_by: 'escrow-co' });
    await expectRefusedEverywhere(ctx, key, marked.id, marked.hash);
  });
});

describe('a process that starts after the rows were erased', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ({ ctx, key } = await setUp());
  });
  afterAll(async () => ctx.close());

  it('finds the sealed leaf missing from the entries and signs nothing about revocation', async () => {
    const other = await issue(ctx, key);
    const { id, hash } = await issue(ctx, key);
    await revoke(ctx, key, id);
    await ctx.app.services.anchoring.sealAll();
    await eraseRevocation(ctx, id);
    // a fresh process (its own services over the same store) has seen nothing of the log yet
    const fresh = await createServices(ctx.app.services.config, ctx.repos);
    for (const receiptHash of [hash, other.hash]) {
      const refused = await fresh.receipts.publicStatus(receiptHash).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isServiceError(refused) && refused.code).toBe('receipt_integrity_failed');
      expect(String((refused as Error).message)).toMatch(/signed (tree|checkpoint)/);
    }
    await expectRefusedEverywhere(ctx, key, id, hash);
  });
});

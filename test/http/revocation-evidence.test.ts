import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
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
  await registerIssuer(ctx.repos, issuerPem);
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
  const res = await revokeVia(ctx.app, key, id, issuerPem);
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

/** RFC 9162 §2.1.1 MTH over entries, written here from the RFC (not the service's code). */
function mth(entries: Buffer[]): Buffer {
  const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
  if (entries.length === 1) return h(Buffer.from([0]), entries[0] as Buffer);
  let k = 1;
  while (k * 2 < entries.length) k *= 2;
  return h(Buffer.from([1]), mth(entries.slice(0, k)), mth(entries.slice(k)));
}

/** What a fresh process (its own services over the same store) answers for the status. */
async function freshStatusRefusal(ctx: TestContext, receiptHash: string): Promise<string> {
  const fresh = await createServices(ctx.app.services.config, ctx.repos);
  const refused = await fresh.receipts.publicStatus(receiptHash).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(isServiceError(refused) && refused.code).toBe('receipt_integrity_failed');
  return (refused as Error).message;
}

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
    // a fresh process has seen nothing of the log yet: the signed tree has a leaf without entry
    for (const receiptHash of [hash, other.hash]) {
      expect(await freshStatusRefusal(ctx, receiptHash)).toMatch(/the store holds \d+ of their/);
    }
    await expectRefusedEverywhere(ctx, key, id, hash);
  });
});

describe('a process that starts after the entry bytes were rewritten', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ({ ctx, key } = await setUp());
  });
  afterAll(async () => ctx.close());

  it("finds they do not give the checkpoint's root, nor a recomputed root its signature", async () => {
    const { id, hash } = await issue(ctx, key);
    await revoke(ctx, key, id);
    await ctx.app.services.anchoring.sealAll();
    const { knex } = ctx.db;
    // the revocation entry becomes a receipt entry of some other hash, its leaf hash to match
    const decoy = createHash('sha256').update('decoy').digest();
    const leaf = createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), decoy]))
      .digest();
    await knex('log_entries').where({ revokes: id }).update({ entry: decoy, leaf_hash: leaf });
    await knex('revocations').where({ receipt_id: id }).delete();
    await knex('receipts').where({ id }).update({ revoked_at: null, revoked_by: null });
    expect(await freshStatusRefusal(ctx, hash)).toMatch(/do not give the root/);

    // and the stored root made to match the rewritten entries: its note's signature does not
    const rows = (await knex('log_leaves as l')
      .join('log_entries as e', 'e.seq', 'l.seq')
      .orderBy('l.leaf_index')
      .select('e.entry')) as { entry: Uint8Array }[];
    const root = mth(rows.map((r) => Buffer.from(r.entry)));
    const latest = await knex('log_checkpoints').orderBy('tree_size', 'desc').first('tree_size');
    await knex('log_checkpoints')
      .where({ tree_size: latest.tree_size })
      .update({ root_hash: root });
    expect(await freshStatusRefusal(ctx, hash)).toMatch(/not signed by the log's key/);
  });
});

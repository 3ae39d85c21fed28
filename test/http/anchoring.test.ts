import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashFromWire,
  leafHash,
  proofFromWire,
  rootHash,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
} from '../../src/anchoring/index.js';
import { pendingNote } from '../../src/http/routes/anchoring.js';
import { createServices } from '../../src/services.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { issueValidRon, registerNotary, validRequest, type Notary } from '../helpers/ron.js';

let ctx: TestContext;
let key: string;
let notary: Notary;

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read', 'anchor']);
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => ctx.close());

async function issue(withPdf = true): Promise<{ receiptId: string; receiptHash: string }> {
  const body = validRequest(notary);
  if (!withPdf) delete body.doc.pdfBase64;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const anchor = (id: string, apiKey = key) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1/anchor/${id}`, headers: { 'x-api-key': apiKey } });

async function jwksKeys(): Promise<Uint8Array[]> {
  const { keys } = (await ctx.app.inject({ url: '/.well-known/jwks.json' })).json();
  return keys.map((k: { x: string }) => new Uint8Array(Buffer.from(k.x, 'base64url')));
}

describe('POST /anchor/:id', () => {
  it('PENDING until the log is sealed, with a note saying when it will be', async () => {
    const issued = await issue();
    const pending = await anchor(issued.receiptId);
    expect(pending.statusCode).toBe(200);
    // it says what happens next and when (the test app seals only on demand)
    expect(pending.json()).toEqual({
      status: 'PENDING',
      note: 'not in the log yet: this service seals the log only on demand (ANCHOR_INTERVAL_MS=0), when an operator runs `receipts anchor run`; then POST /anchor/{receiptId} again for the inclusion proof',
    });
  });

  it('the pending note names the sealing interval when the service seals on a timer', () => {
    expect(pendingNote(60_000)).toBe(
      'not in the log yet: pending receipts are sealed into a new signed checkpoint every 60 s, so within 60 s and the seal in progress; then POST /anchor/{receiptId} again for the inclusion proof',
    );
    expect(pendingNote(60_000, 250)).toBe(
      'not in the log yet: pending receipts are sealed into a new signed checkpoint every 250 ms, so within 250 ms and the seal in progress; then POST /anchor/{receiptId} again for the inclusion proof',
    );
  });

  it('ANCHORED once sealed, with an inclusion proof that checks offline against a JWKS-signed checkpoint', async () => {
    const issued = await issue();
    await issue(); // a second leaf so the proof is not trivial
    const sealed = await ctx.app.services.anchoring.sealAll();
    expect(sealed.sealed).toBeGreaterThanOrEqual(2);

    const res = await anchor(issued.receiptId);
    const state = res.json();
    const expectedLeaf = leafHash(hashFromWire(issued.receiptHash));
    expect(state).toMatchObject({
      status: 'ANCHORED',
      subjectVersion: 'rfc9162-sha256-v1',
      subjectDigest: `sha256:${Buffer.from(expectedLeaf).toString('hex')}`,
    });
    expect(Date.parse(state.anchoredAt)).not.toBeNaN();
    // offline: the checkpoint is signed by a JWKS key, and the proof leads to its root
    const [publicKey] = await jwksKeys();
    const checkpoint = verifyCheckpoint(state.checkpoint, {
      keyName: ctx.config.logOrigin,
      publicKey: publicKey as Uint8Array,
    });
    expect(checkpoint.treeSize).toBe(state.treeSize);
    expect(Buffer.from(checkpoint.rootHash).toString('hex')).toBe(
      state.rootHash.replace('sha256:', ''),
    );
    expect(
      verifyInclusion(
        expectedLeaf,
        state.logIndex,
        state.treeSize,
        proofFromWire(state.inclusionProof),
        checkpoint.rootHash,
      ),
    ).toBe(true);
    // a tampered proof does not
    const bad = proofFromWire(state.inclusionProof);
    if (bad[0]) bad[0][0] = (bad[0][0] ?? 0) ^ 1;
    expect(
      verifyInclusion(expectedLeaf, state.logIndex, state.treeSize, bad, checkpoint.rootHash),
    ).toBe(false);
  });

  it('every view of an anchored receipt shows the anchor', async () => {
    const issued = await issue();
    await ctx.app.services.anchoring.sealAll();
    const reverified = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/receipt/${issued.receiptId}/verify`,
      headers: { 'x-api-key': key },
    });
    expect(reverified.json()).toMatchObject({ verified: true, proofVerified: true });
    const view = (
      await ctx.app.inject({
        url: `/api/v1/receipt/${issued.receiptId}`,
        headers: { 'x-api-key': key },
      })
    ).json();
    expect(view.anchor.status).toBe('ANCHORED');
    const list = (
      await ctx.app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } })
    ).json();
    expect(
      list.find((i: { receiptId: string }) => i.receiptId === issued.receiptId).anchorStatus,
    ).toBe('ANCHORED');
  });

  it('proofVerified turns false when the stored receipt hash no longer matches its leaf', async () => {
    const issued = await issue();
    await ctx.app.services.anchoring.sealAll();
    await ctx.db
      .knex('receipts')
      .where({ id: issued.receiptId })
      .update({ receipt_hash: `sha256:${'1'.repeat(64)}` });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/receipt/${issued.receiptId}/verify`,
      headers: { 'x-api-key': key },
    });
    expect(res.json()).toMatchObject({
      proofVerified: false,
      verified: false,
      integrityVerified: false,
    });
  });

  it('409 proof_artifact_required_for_anchor without a document; 404 unknown or other tenant; 400 non-uuid; 403 without scope', async () => {
    const noDoc = await issue(false);
    const res = await anchor(noDoc.receiptId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('proof_artifact_required_for_anchor');
    expect((await anchor('6d0f6a4e-2b1c-4f8e-9d3a-5c7b8e9f0a1b')).statusCode).toBe(404);
    const other = await ctx.apiKey(['anchor'], 'tenant-z');
    expect((await anchor(noDoc.receiptId, other)).json().error).toBe('receipt_not_found');
    expect((await anchor('xyz')).statusCode).toBe(400);
    const readOnly = await ctx.apiKey(['read']);
    expect((await anchor(noDoc.receiptId, readOnly)).statusCode).toBe(403);
  });
});

describe('log monitoring endpoints', () => {
  it('serve the latest checkpoint and consistency proofs that verify', async () => {
    await issue();
    await ctx.app.services.anchoring.sealAll();
    const first = (
      await ctx.app.inject({ url: '/api/v1/log/checkpoint', headers: { 'x-api-key': key } })
    ).json();
    await issue();
    await issue();
    await ctx.app.services.anchoring.sealAll();
    const second = (
      await ctx.app.inject({ url: '/api/v1/log/checkpoint', headers: { 'x-api-key': key } })
    ).json();
    expect(second.treeSize).toBe(first.treeSize + 2);
    const res = await ctx.app.inject({
      url: `/api/v1/log/consistency?from=${first.treeSize}&to=${second.treeSize}`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode).toBe(200);
    const { proof, fromRoot, toRoot } = res.json();
    expect(fromRoot).toBe(first.rootHash);
    expect(
      verifyConsistency(
        first.treeSize,
        second.treeSize,
        hashFromWire(fromRoot),
        hashFromWire(toRoot),
        proofFromWire(proof),
      ),
    ).toBe(true);
    const bad = await ctx.app.inject({
      url: '/api/v1/log/consistency?from=9&to=2',
      headers: { 'x-api-key': key },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await ctx.app.inject({
      url: '/api/v1/log/consistency?from=1&to=99999',
      headers: { 'x-api-key': key },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('concurrent sealers', () => {
  it('produce one consistent log: every leaf once, in one order', async () => {
    for (let i = 0; i < 30; i++) await issue();
    // three processes' worth of services over one store, built as the server builds them
    const sealers = await Promise.all(
      [0, 1, 2].map(
        async () =>
          (await createServices(ctx.config, ctx.repos, { loadScreening: false })).anchoring,
      ),
    );
    await Promise.all(sealers.map((s) => s.sealAll(7)));
    const entries = await ctx.db
      .knex('log_entries as e')
      .leftJoin('log_leaves as l', 'l.seq', 'e.seq')
      .select('e.leaf_hash', 'l.leaf_index')
      .orderBy('l.leaf_index');
    expect(entries.every((e: { leaf_index: unknown }) => e.leaf_index !== null)).toBe(true);
    expect(await ctx.db.knex('log_pending')).toEqual([]);
    expect(entries.map((e: { leaf_index: string | number }) => Number(e.leaf_index))).toEqual(
      entries.map((_: unknown, i: number) => i),
    );
    const latest = await ctx.repos.log.latestCheckpoint();
    expect(latest?.treeSize).toBe(entries.length);
    const expectedRoot = rootHash(
      entries.map((e: { leaf_hash: Buffer }) => new Uint8Array(e.leaf_hash)),
    );
    expect(Buffer.from(expectedRoot).equals(latest?.rootHash ?? Buffer.alloc(0))).toBe(true);
  });
});

/**
 * Issues a receipt in a context of its own (a sealer at the given cadence), then polls the
 * anchor endpoint every `pollMs` until it answers ANCHORED or `withinMs` has passed; the answer
 * last seen and the time from issuance to it.
 */
async function issueAndPollSealed(
  env: Record<string, string>,
  pollMs: number,
  withinMs: number,
): Promise<{ status: string; checkpoint?: string; elapsedMs: number }> {
  const timed = await createTestContext(env);
  try {
    const apiKey = await timed.apiKey(['verify', 'anchor']);
    const issued = await issueValidRon(timed, apiKey);
    expect(issued.statusCode, issued.body).toBe(200);
    const id = issued.json().receiptId as string;
    const answered = Date.now();
    let res: { status: string; checkpoint?: string } = { status: 'PENDING' };
    while (res.status !== 'ANCHORED' && Date.now() - answered < withinMs) {
      await new Promise((r) => setTimeout(r, pollMs));
      res = (
        await timed.app.inject({
          method: 'POST',
          url: `/api/v1/anchor/${id}`,
          headers: { 'x-api-key': apiKey },
        })
      ).json();
    }
    return { ...res, elapsedMs: Date.now() - answered };
  } finally {
    await timed.close();
  }
}

describe('the in-process sealer', () => {
  it('anchors pending receipts every ANCHOR_INTERVAL_MS without being asked', async () => {
    const res = await issueAndPollSealed({ ANCHOR_INTERVAL_MS: '150' }, 100, 20_000);
    expect(res.status).toBe('ANCHORED');
  });

  it('seals a receipt into a signed checkpoint within two seconds at the default cadence', async () => {
    // the default SEAL_BATCH_MS; the quiet-log interval is far beyond the test
    const res = await issueAndPollSealed({ ANCHOR_INTERVAL_MS: '60000' }, 25, 5_000);
    expect(res.status).toBe('ANCHORED');
    expect(res.elapsedMs).toBeLessThan(2_000);
    expect(res.checkpoint).toMatch(/\n\n\u2014 /);
  });
});

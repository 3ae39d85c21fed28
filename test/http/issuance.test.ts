import * as ed from '@noble/ed25519';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalReceipt, sha256Digest } from '../../src/receipts/canonical.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { registerNotary, SAMPLE_LISTS_DIR, validRequest, type Notary } from '../helpers/ron.js';
import { samplePdf, sha256Hex } from '../helpers/requests.js';

let ctx: TestContext;
let key: string;
let otherTenantKey: string;
let notary: Notary;

beforeAll(async () => {
  ctx = await createTestContext({ SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR });
  key = await ctx.apiKey(['verify', 'read']);
  otherTenantKey = await ctx.apiKey(['verify', 'read'], 'tenant-b');
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => ctx.close());

/** GET /receipt/{id}: the stored receipt view. */
async function storedView(receiptId: string) {
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${receiptId}`,
    headers: { 'x-api-key': key },
  });
  return res.json();
}

/** The commitment of docs/decisions/0013-inputscommitment.md, computed with an independent RFC 8785 implementation. */
function jcsDigest(value: unknown): string {
  return `sha256:${sha256Hex(canonicalize(value) ?? '')}`;
}

async function verify(body: unknown, apiKey = key) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': apiKey },
    payload: body as object,
  });
}

describe('POST /api/v1/verify with a fully valid request', () => {
  it('is ALLOW / clean with a signed, canonical, hash-committed receipt', async () => {
    const res = await verify(validRequest(notary));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      receiptVersion: '1.0',
      status: 'clean',
      decision: 'ALLOW',
      reasons: [],
      anchor: { status: 'PENDING' },
      revocation: { status: 'ACTIVE' },
      receiptSignature: { alg: 'EdDSA' },
    });
    expect(body.receiptId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.receiptHash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const got = await ctx.app.inject({
      url: `/api/v1/receipt/${body.receiptId}`,
      headers: { 'x-api-key': key },
    });
    expect(got.statusCode).toBe(200);
    const view = got.json();
    expect(view.pdfUrl).toBe(`/api/v1/receipt/${body.receiptId}/pdf`);
    expect(view.receipt.checks.map((c: { status: string }) => c.status)).toEqual(
      Array(view.receipt.checks.length).fill('PASS'),
    );
    // the canonical string is the RFC 8785 form of the stored receipt and re-hashes to receiptHash
    expect(view.canonicalReceipt).toBe(canonicalReceipt(view.receipt));
    expect(sha256Digest(view.canonicalReceipt)).toBe(body.receiptHash);

    // the signature verifies with @noble/ed25519 against the JWKS key, byte for byte
    const jwks = (await ctx.app.inject({ url: '/.well-known/jwks.json' })).json();
    const jwk = jwks.keys.find((k: { kid: string }) => k.kid === body.receiptSignature.kid);
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    const ok = await ed.verifyAsync(
      Buffer.from(body.receiptSignature.signature, 'base64url'),
      new TextEncoder().encode(view.canonicalReceipt),
      Buffer.from(jwk.x, 'base64url'),
    );
    expect(ok).toBe(true);
  });

  it('commits to the inputs without storing the document', async () => {
    const req = validRequest(notary);
    const res = await verify(req);
    const view = await storedView(res.json().receiptId);
    // docs/decisions/0013-inputscommitment.md, recomputed with an independent RFC 8785 implementation: sha256 over the JCS
    // form of the request with doc.pdfBase64 replaced by the digest of the decoded document
    const pdf = Buffer.from(req.doc.pdfBase64 ?? '', 'base64');
    const committed = { ...req, doc: { ...req.doc, pdfBase64: `sha256:${sha256Hex(pdf)}` } };
    expect(view.receipt.inputsCommitment).toBe(jcsDigest(committed));
    expect(JSON.stringify(view)).not.toContain(req.doc.pdfBase64?.slice(0, 40));
    const rows = await ctx.db.knex('receipts').where({ id: view.receiptId });
    expect(JSON.stringify(rows)).not.toContain(req.doc.pdfBase64?.slice(0, 40));
  });

  it('takes an empty pdfBase64 as no document: doc.hash warns, the commitment keeps the empty string', async () => {
    const req = validRequest(notary);
    req.doc.pdfBase64 = '';
    const res = await verify(req);
    expect(res.statusCode).toBe(200);
    const view = await storedView(res.json().receiptId);
    const docCheck = view.receipt.checks.find((c: { checkId: string }) => c.checkId === 'doc.hash');
    expect(docCheck.status).toBe('WARN');
    expect(docCheck.details).toContain('no document bytes');
    expect(view.receipt.inputsCommitment).toBe(jcsDigest(req));
  });

  it('accepts bare 64-hex docHash and normalises it', async () => {
    const req = validRequest(notary);
    req.doc.docHash = req.doc.docHash.replace('sha256:', '');
    const res = await verify(req);
    expect(res.json().decision).toBe('ALLOW');
  });
});

describe('each check failure gives its documented reason and decision', () => {
  const cases: [string, (n: Notary) => unknown, string, string][] = [
    [
      'document bytes do not match docHash',
      (n) => ({
        ...validRequest(n),
        doc: { ...validRequest(n).doc, pdfBase64: samplePdf('other').toString('base64') },
      }),
      'BLOCK',
      'doc_hash_mismatch',
    ],
    [
      'document is not a PDF',
      (n) => {
        const bytes = Buffer.from('plain text, not a pdf');
        const r = validRequest(n, bytes);
        return r;
      },
      'BLOCK',
      'document_not_pdf',
    ],
    [
      'opaque seal',
      (n) => ({
        ...validRequest(n),
        ron: { ...validRequest(n).ron, sealScheme: undefined, sealPayload: 'opaque-blob' },
      }),
      'FLAG',
      'seal_unverifiable',
    ],
    [
      'seal signed by another key',
      (n) => {
        const r = validRequest(n);
        r.ron.sealPayload =
          r.ron.sealPayload.slice(0, -4) + (r.ron.sealPayload.endsWith('AAAA') ? 'BBBB' : 'AAAA');
        return r;
      },
      'BLOCK',
      'seal_invalid',
    ],
    [
      'unregistered notary',
      (n) => ({ ...validRequest(n), ron: { ...validRequest(n).ron, notaryId: 'N-404' } }),
      'BLOCK',
      'notary_not_registered',
    ],
    [
      'unknown property state',
      (n) => ({ ...validRequest(n), property: { ...validRequest(n).property, state: 'ZZ' } }),
      'BLOCK',
      'unknown_state_code',
    ],
    [
      'OCR names another notary',
      (n) => ({ ...validRequest(n), ocrData: { notaryName: 'Somebody Else Entirely' } }),
      'FLAG',
      'ocr_mismatch',
    ],
    [
      'screening strong match',
      (n) => ({
        ...validRequest(n),
        registryScreening: { subjectName: 'Bartholomew Nonesuch', sourceIds: ['sample-synthetic'] },
      }),
      'BLOCK',
      'screening_strong_match',
    ],
    [
      'timestamp far in the future',
      (n) => ({ ...validRequest(n), timestamp: new Date(Date.now() + 3_600_000).toISOString() }),
      'BLOCK',
      'timestamp_in_future',
    ],
    [
      'unknown policy profile',
      (n) => ({ ...validRequest(n), policy: { profile: 'no-such-profile' } }),
      'BLOCK',
      'unknown_policy_profile',
    ],
  ];

  it.each(cases)('%s', async (_name, build, decision, reason) => {
    const res = await verify(build(notary));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.decision).toBe(decision);
    expect(body.status).toBe(decision === 'BLOCK' ? 'failure' : 'compliance_gap');
    expect(body.reasons).toContain(reason);
  });

  it('an expired commission BLOCKs', async () => {
    const expired = await registerNotary(ctx.repos, 'tenant-a', {
      id: 'N-OLD',
      expires: '2020-01-31',
    });
    const body = (await verify(validRequest(expired))).json();
    expect(body.decision).toBe('BLOCK');
    expect(body.reasons).toContain('commission_expired');
  });

  it('an unknown screening source is a 400, and nothing is stored', async () => {
    const before = await ctx.db.knex('receipts').count({ n: '*' }).first();
    const res = await verify({
      ...validRequest(notary),
      registryScreening: { subjectName: 'A B', sourceIds: ['nope'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_failed',
      details: { unknownSourceIds: ['nope'] },
    });
    const after = await ctx.db.knex('receipts').count({ n: '*' }).first();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});

describe('request constraints of spec §2.1 give 400', () => {
  const base = () => validRequest(notary);
  const bad: [string, (r: ReturnType<typeof base>) => unknown, string][] = [
    ['empty bundleId', (r) => ({ ...r, bundleId: '' }), 'bundleId'],
    ['empty transactionType', (r) => ({ ...r, transactionType: '' }), 'transactionType'],
    [
      '3-letter commissionState',
      (r) => ({ ...r, ron: { ...r.ron, commissionState: 'TEX' } }),
      'ron.commissionState',
    ],
    [
      '1-letter property.state',
      (r) => ({ ...r, property: { ...r.property, state: 'T' } }),
      'property.state',
    ],
    [
      'unknown sealScheme',
      (r) => ({ ...r, ron: { ...r.ron, sealScheme: 'RSA' } }),
      'ron.sealScheme',
    ],
    ['bad docHash', (r) => ({ ...r, doc: { docHash: 'md5:abc' } }), 'doc.docHash'],
    [
      'bad base64',
      (r) => ({ ...r, doc: { ...r.doc, pdfBase64: '!!not base64!!' } }),
      'doc.pdfBase64',
    ],
    [
      'no sourceIds items',
      (r) => ({ ...r, registryScreening: { sourceIds: [] } }),
      'registryScreening.sourceIds',
    ],
    [
      '51 sourceIds',
      (r) => ({ ...r, registryScreening: { sourceIds: Array(51).fill('x') } }),
      'registryScreening.sourceIds',
    ],
    [
      '1-char subjectName',
      (r) => ({ ...r, registryScreening: { subjectName: 'A' } }),
      'registryScreening.subjectName',
    ],
    [
      '257-char subjectName',
      (r) => ({ ...r, registryScreening: { subjectName: 'A'.repeat(257) } }),
      'registryScreening.subjectName',
    ],
    [
      'non-boolean forceRefresh',
      (r) => ({ ...r, registryScreening: { forceRefresh: 'yes' } }),
      'registryScreening.forceRefresh',
    ],
    ['bad timestamp', (r) => ({ ...r, timestamp: 'yesterday' }), 'timestamp'],
    ['missing ron', (r) => ({ ...r, ron: undefined }), 'ron'],
    ['extra top-level field', (r) => ({ ...r, extra: 1 }), ''],
    ['extra field in doc', (r) => ({ ...r, doc: { ...r.doc, x: 1 } }), 'doc'],
    ['extra field in policy', (r) => ({ ...r, policy: { profile: 'p', x: 1 } }), 'policy'],
    ['extra field in property', (r) => ({ ...r, property: { ...r.property, x: 1 } }), 'property'],
    ['extra field in ocrData', (r) => ({ ...r, ocrData: { x: 1 } }), 'ocrData'],
    [
      'extra field in registryScreening',
      (r) => ({ ...r, registryScreening: { x: 1 } }),
      'registryScreening',
    ],
    ['extra field in ron', (r) => ({ ...r, ron: { ...r.ron, x: 1 } }), 'ron'],
  ];
  it.each(bad)('%s', async (_name, mutate, path) => {
    const res = await verify(mutate(base()));
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json.error).toBe('validation_failed');
    expect(
      (json.details as { path: string }[]).some((d) => d.path === path || d.path.startsWith(path)),
    ).toBe(true);
  });
});

describe('tenants and listing', () => {
  it('another tenant cannot read or list a receipt', async () => {
    const mine = (await verify(validRequest(notary))).json();
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${mine.receiptId}`,
      headers: { 'x-api-key': otherTenantKey },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('receipt_not_found');
    const list = (
      await ctx.app.inject({
        url: '/api/v1/receipts?limit=200',
        headers: { 'x-api-key': otherTenantKey },
      })
    ).json();
    expect(list.map((i: { receiptId: string }) => i.receiptId)).not.toContain(mine.receiptId);
  });

  it('pages newest first without duplicates or gaps while receipts are inserted', async () => {
    const t = await ctx.apiKey(['verify', 'read'], 'tenant-paging');
    const pagingNotary = await registerNotary(ctx.repos, 'tenant-paging');
    const issued: string[] = [];
    for (let i = 0; i < 7; i++)
      issued.push((await verify(validRequest(pagingNotary), t)).json().receiptId);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await ctx.app.inject({
        url: `/api/v1/receipts?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        headers: { 'x-api-key': t },
      });
      expect(res.statusCode).toBe(200);
      for (const item of res.json()) {
        expect(Object.keys(item).sort()).toEqual([
          'anchorStatus',
          'createdAt',
          'decision',
          'receiptId',
          'revoked',
          'status',
        ]);
        seen.push(item.receiptId);
      }
      // a receipt issued mid-paging is newer than the cursor: it never shifts later pages
      if (page === 0) await verify(validRequest(pagingNotary), t);
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual([...issued].reverse());
  });

  it('never answers 400 to odd list parameters', async () => {
    for (const q of [
      'limit=abc',
      'limit=-5',
      'limit=100000',
      'cursor=%%%garbage',
      'limit=1&limit=2',
      'cursor=',
    ]) {
      const res = await ctx.app.inject({
        url: `/api/v1/receipts?${q}`,
        headers: { 'x-api-key': key },
      });
      expect(res.statusCode, q).toBe(200);
      expect(Array.isArray(res.json())).toBe(true);
    }
  });
});

describe('issuance is one transaction', () => {
  it('a failure after the receipt insert leaves no receipt row behind', async () => {
    await ctx.db.knex.raw(`
      create or replace function fail_log_insert() returns trigger as $$
      begin raise exception 'injected failure'; end $$ language plpgsql`);
    await ctx.db.knex.raw(
      'create trigger fail_log_insert before insert on log_entries for each row execute function fail_log_insert()',
    );
    try {
      const before = Number((await ctx.db.knex('receipts').count({ n: '*' }).first())?.n);
      const res = await verify(validRequest(notary));
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'internal_error', message: 'internal error' });
      expect(res.body).not.toContain('injected');
      const after = Number((await ctx.db.knex('receipts').count({ n: '*' }).first())?.n);
      expect(after).toBe(before);
    } finally {
      await ctx.db.knex.raw('drop trigger fail_log_insert on log_entries');
    }
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('publishes the signing key without an API key', async () => {
    const res = await ctx.app.inject({ url: '/.well-known/jwks.json' });
    expect(res.statusCode).toBe(200);
    const { keys } = res.json();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(keys[0]).toEqual(ctx.app.services.signer?.publicJwk);
    expect(sha256Hex('x')).toHaveLength(64);
  });
});

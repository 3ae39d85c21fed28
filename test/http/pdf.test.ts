import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  certificateFingerprint,
  certificatesFromPem,
} from '@verification-receipts/verify/timestamp';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { pdfText } from '../helpers/pdf-text.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

let ctx: TestContext;
let key: string;
let notary: Notary;
const issuerPem = ed25519Pem();

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://receipts.example.com' });
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  notary = await registerNotary(ctx.repos);
  await ctx.repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'tenant-a',
    publicKey: rawEd25519PublicKey(issuerPem),
  });
});
afterAll(async () => ctx.close());

async function issue(body: unknown) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: body as object,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function pdfOf(id: string) {
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${id}/pdf`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfText(res.rawPayload);
}

describe('GET /receipt/:id/pdf', () => {
  it('renders an ALLOW receipt with its checks, hashes, signature and verify URL', async () => {
    const issued = await issue(validRequest(notary));
    const { compact } = await pdfOf(issued.receiptId);
    for (const expected of [
      issued.receiptId,
      'clean',
      'ALLOW',
      'ron-standard-v1',
      issued.receiptHash,
      issued.receiptSignature.kid,
      'doc.hash',
      'ron.seal',
      'PASS',
      `https://receipts.example.com/api/v1/receipt/${issued.receiptId}/verify`,
    ]) {
      expect(compact).toContain(expected.replace(/\s+/g, ''));
    }
    expect(compact).not.toContain('REVOKED');
  });

  it('renders a BLOCK receipt with the failing check and its reason', async () => {
    const issued = await issue({
      ...validRequest(notary),
      property: { parcelId: 'p', county: 'c', state: 'ZZ' },
    });
    expect(issued.decision).toBe('BLOCK');
    const { compact } = await pdfOf(issued.receiptId);
    for (const expected of [
      'failure',
      'BLOCK',
      'FAIL',
      'property.jurisdiction',
      'unknown_state_code',
    ])
      expect(compact).toContain(expected);
  });

  it('marks a revoked receipt clearly', async () => {
    const issued = await issue(validRequest(notary));
    const at = new Date().toISOString();
    const h = signRevocation(issuerPem, 'escrow-co', issued.receiptId, at);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/receipt/${issued.receiptId}/revoke`,
      headers: {
        'x-api-key': key,
        'x-issuer-id': h.issuerId,
        'x-signature-timestamp': h.timestamp,
        'x-issuer-signature': h.signature,
      },
    });
    expect(res.json().result).toBe('REVOKED');
    const { compact } = await pdfOf(issued.receiptId);
    expect(compact).toContain('REVOKED');
    expect(compact).toContain('escrow-co');
  });

  it('404 for unknown or other-tenant ids, 400 for a non-uuid', async () => {
    const other = await ctx.apiKey(['read'], 'tenant-other');
    const issued = await issue(validRequest(notary));
    const theirs = await ctx.app.inject({
      url: `/api/v1/receipt/${issued.receiptId}/pdf`,
      headers: { 'x-api-key': other },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error).toBe('receipt_not_found');
    expect(
      (await ctx.app.inject({ url: '/api/v1/receipt/zzz/pdf', headers: { 'x-api-key': key } }))
        .statusCode,
    ).toBe(400);
  });
});

describe('the PDF carries its bundle', () => {
  it('as the embedded file receipt-bundle.json, read back by pdf.js (an independent reader)', async () => {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const issued = await issue(validRequest(notary));
    const id = issued.receiptId as string;
    const pdf = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/pdf`,
      headers: { 'x-api-key': key },
    });
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload), verbosity: 0 }).promise;
    const attachments = (await doc.getAttachments()) as Record<
      string,
      { filename: string; content: Uint8Array }
    >;
    await doc.destroy();
    const attached = Object.values(attachments).find((a) => a.filename === 'receipt-bundle.json');
    expect(attached).toBeDefined();
    const bundle = JSON.parse(Buffer.from(attached?.content ?? []).toString('utf8'));
    const served = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    // the served bundle, and the receipt key's statement naming the PDF's signing certificate
    const { pdfSigner, ...rest } = bundle;
    expect(rest).toEqual(served.json());
    const pem = (await ctx.app.inject({ url: '/.well-known/pdf-signing-cert.pem' })).body;
    const [certificate] = certificatesFromPem(pem);
    expect(pdfSigner.statement.certificate).toBe(certificateFingerprint(certificate!));
    expect(pdfSigner.signature.kid).toBe(bundle.receipt.receiptSignature.kid);
    const { compact } = await pdfText(pdf.rawPayload);
    expect(compact).toContain(
      `https://receipts.example.com/verify?hash=${encodeURIComponent(bundle.receipt.receiptHash)}`,
    );
  });
});

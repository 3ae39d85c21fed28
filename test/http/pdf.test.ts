import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  certificateFingerprint,
  certificatesFromPem,
} from '@verification-receipts/verify/internals';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { createTestContext, ed25519Pem, tempDir, type TestContext } from '../helpers/context.js';
import { pdfText } from '../helpers/pdf-text.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

let ctx: TestContext;
let key: string;
let notary: Notary;
const issuerPem = ed25519Pem();

beforeAll(async () => {
  ctx = await createTestContext({
    PUBLIC_URL: 'https://receipts.example.com',
    ISSUER_NAME: 'Lone Star Title & Escrow',
    PDF_TIME_ZONE: 'America/Chicago',
  });
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
      'Verificationpassed',
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
      'Verificationfailed',
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

/** The text of pages `first` to `last` as pdftotext (poppler) extracts it, in layout. */
function pdftotext(pdf: Buffer, first: number, last = first): string {
  const file = path.join(tempDir('pdf-text-'), 'receipt.pdf');
  fs.writeFileSync(file, pdf);
  return execFileSync(
    'pdftotext',
    ['-layout', '-f', String(first), '-l', String(last), file, '-'],
    {
      encoding: 'utf8',
    },
  );
}

describe('the PDF reads like a document for people (pdftotext)', () => {
  it('first page: issuer, the verdict in words, the property as an address, local and UTC times; machine identifiers on the technical page', async () => {
    const issued = await issue(validRequest(notary));
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${issued.receiptId}/pdf`,
      headers: { 'x-api-key': key },
    });
    const first = pdftotext(res.rawPayload, 1);
    const lines = first
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(lines[0]).toMatch(/^Lone Star Title & Escrow\s+PDF made /);
    expect(lines[1]).toBe('Verification Receipt');
    expect(first).toMatch(new RegExp(`Receipt ID\\s+${issued.receiptId}`));
    // created in UTC, shown in Chicago time with the UTC time beside it
    const stored = await ctx.app.inject({
      url: `/api/v1/receipt/${issued.receiptId}`,
      headers: { 'x-api-key': key },
    });
    const created = new Date(stored.json().receipt.createdAt as string);
    const utc = `${created.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
    expect(first).toMatch(
      new RegExp(`Issued\\s+\\d{1,2} \\w+ \\d{4} at \\d\\d:\\d\\d \\(America/Chicago\\); ${utc}`),
    );
    expect(first).toContain('Verification passed');
    expect(first).toMatch(/Decision ALLOW/);
    expect(first).not.toMatch(/\bclean\b/);
    // the property as an address block: one line each
    expect(first).toMatch(/Property\s+Parcel R-100-200\n\s+Travis County\n\s+TX\n/);
    expect(first).toContain('Scan: verify page');
    // no hashes, signatures or log formats on the first page
    expect(first).not.toMatch(/sha256:|rfc9162|EdDSA|kid/i);
    const technical = pdftotext(res.rawPayload, 2, 99);
    expect(technical).toMatch(/^\s*Technical details/);
    expect(technical.replace(/\s+/g, '')).toContain(issued.receiptHash as string);
    expect(technical).toContain('Document hash');
    expect(technical).toContain('SIGNING KEY ID');
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
    expect((attached as { description?: string } | undefined)?.description).toContain(
      `verify with npx @verification-receipts/verify receipt-${id}.pdf --online http`,
    );
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

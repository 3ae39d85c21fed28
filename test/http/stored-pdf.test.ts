import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundle } from '@verification-receipts/verify';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { loadPdfCredentials } from '../../src/pdf/sign/credentials.js';
import { PdfSigner } from '../../src/pdf/sign/index.js';
import { createTestContext, ed25519Pem, tempDir, type TestContext } from '../helpers/context.js';
import { minimalRequest, samplePdf } from '../helpers/requests.js';

/**
 * A stored PDF is served only when its bytes are the PDF the service signed for that receipt in
 * that state: bytes replaced in SQL (a forged PDF, a signed PDF edited, another receipt's PDF, a
 * PDF of an earlier state) are logged, counted and replaced by a PDF made again, never served.
 */
let ctx: TestContext;
let key: string;
const issuerPem = ed25519Pem();

beforeAll(async () => {
  ctx = await createTestContext({ METRICS_TOKEN: 'scrape-secret' });
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  await registerIssuer(ctx.repos, issuerPem);
});
afterAll(async () => ctx.close());

/** A receipt; with `anchorable`, its proof artifact too, so that a seal anchors it. */
async function issue(anchorable = false): Promise<{ id: string; hash: string }> {
  const doc = { docHash: minimalRequest().doc.docHash, pdfBase64: samplePdf().toString('base64') };
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: anchorable ? minimalRequest({ doc }) : minimalRequest(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().receiptId, hash: res.json().receiptHash };
}

async function pdfOf(id: string): Promise<Buffer> {
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${id}/pdf`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res.rawPayload;
}

const storedRow = (id: string, state: string) =>
  ctx.db.knex('receipt_pdfs').where({ receipt_id: id, state });

async function replacedCount(): Promise<number> {
  const res = await ctx.app.inject({
    url: '/metrics',
    headers: { authorization: 'Bearer scrape-secret' },
  });
  const m = /^receipt_integrity_failures_total\{use="stored-pdf"\} (\d+)$/m.exec(res.body);
  return Number(m?.[1] ?? 0);
}

/**
 * The planted bytes are not served: what is served is a PDF the verifier package accepts as
 * signed and carrying this receipt, now kept in place of the planted one, and the event counted.
 */
async function expectMadeAgain(id: string, hash: string, state: string, planted: Buffer) {
  await storedRow(id, state).update({ pdf: planted });
  const before = await replacedCount();
  const served = await pdfOf(id);
  expect(served.equals(planted)).toBe(false);
  const read = await readBundle(served);
  expect(read.ok && read.signature).toMatchObject({ present: true, ok: true });
  expect(read.ok && (read.bundle as { receipt: { receiptHash: string } }).receipt.receiptHash).toBe(
    hash,
  );
  expect(await replacedCount()).toBe(before + 1);
  const kept = await storedRow(id, state).first('pdf');
  expect(Buffer.from(kept.pdf).equals(served)).toBe(true);
  return read;
}

describe('stored PDF bytes are checked before they are served', () => {
  it('an intact stored PDF is served as stored, byte for byte', async () => {
    const { id } = await issue();
    const first = await pdfOf(id);
    const before = await replacedCount();
    expect((await pdfOf(id)).equals(first)).toBe(true);
    expect(await replacedCount()).toBe(before);
  });

  it('a PDF forged with pdf-lib around the genuine bundle (unsigned): made again', async () => {
    const { id, hash } = await issue();
    await pdfOf(id);
    const bundle = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    const forged = await PDFDocument.create();
    const page = forged.addPage();
    page.drawText('Verification passed', { font: await forged.embedFont(StandardFonts.Helvetica) });
    await forged.attach(Buffer.from(bundle.body), 'receipt-bundle.json', {
      mimeType: 'application/json',
    });
    await expectMadeAgain(id, hash, 'issued', Buffer.from(await forged.save()));
  });

  it("a PDF signed with another certificate (openssl's) around the genuine bundle: made again", async () => {
    const { id, hash } = await issue();
    await pdfOf(id);
    const dir = tempDir('other-pdf-cert-');
    const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync('openssl', [
      'ecparam',
      '-name',
      'prime256v1',
      '-genkey',
      '-noout',
      '-out',
      keyFile,
    ]);
    execFileSync('openssl', [
      'req',
      '-new',
      '-x509',
      '-key',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=Receipts Service',
    ]);
    const other = new PdfSigner(() =>
      loadPdfCredentials({ keyFile, certFile, dataDir: dir, issuerName: 'x' }),
    );
    const bundle = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    const forged = await PDFDocument.create();
    forged.addPage().drawText('Verification passed', {
      font: await forged.embedFont(StandardFonts.Helvetica),
    });
    await forged.attach(Buffer.from(bundle.body), 'receipt-bundle.json', {
      mimeType: 'application/json',
    });
    const signed = (await other.sign(Buffer.from(await forged.save()))).pdf;
    const read = await readBundle(signed);
    // a valid signature, by a certificate that is not the service's
    expect(read.ok && read.signature).toMatchObject({ present: true, ok: true });
    await expectMadeAgain(id, hash, 'issued', signed);
  });

  it('the signed PDF with one byte of its signed content changed: made again', async () => {
    const { id, hash } = await issue();
    const genuine = await pdfOf(id);
    const edited = Buffer.from(genuine);
    const at = edited.indexOf('/Producer');
    expect(at).toBeGreaterThan(0);
    edited[at + 1] = 'Q'.charCodeAt(0);
    await expectMadeAgain(id, hash, 'issued', edited);
  });

  it("another receipt's genuine signed PDF: made again", async () => {
    const { id, hash } = await issue();
    const other = await issue();
    await pdfOf(id);
    await expectMadeAgain(id, hash, 'issued', await pdfOf(other.id));
  });

  it('the PDF of the issued state in the place of the anchored one: made again, with its log entry', async () => {
    const { id, hash } = await issue(true);
    const issued = await pdfOf(id);
    await ctx.app.services.anchoring.sealAll();
    const anchored = await readBundle(await pdfOf(id));
    const logIndex =
      anchored.ok && (anchored.bundle as { logEntry?: { logIndex: number } }).logEntry;
    expect(logIndex).toMatchObject({ logIndex: expect.any(Number) });
    const read = await expectMadeAgain(id, hash, 'anchored', issued);
    expect(read.ok && read.bundle).toMatchObject({ logEntry: logIndex });
  });

  it('the PDF of the issued state in the place of the revoked one: made again, REVOKED', async () => {
    const { id, hash } = await issue();
    const issued = await pdfOf(id);
    const revoked = await revokeVia(ctx.app, key, id, issuerPem);
    expect(revoked.json()).toMatchObject({ result: 'REVOKED' });
    const genuineRevoked = await readBundle(await pdfOf(id));
    expect(genuineRevoked.ok && genuineRevoked.printed?.text).toMatch(/\bREVOKED\b/);
    const read = await expectMadeAgain(id, hash, 'revoked', issued);
    expect(read.ok && read.printed?.text).toMatch(/\bREVOKED\b/);
  });
});

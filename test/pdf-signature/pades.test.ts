import fs from 'node:fs';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { readBundle, verifyBundle } from '@verification-receipts/verify';
import { selfIssuedCertificate } from '../../src/pdf/sign/certificate.js';
import { signPdf } from '../../src/pdf/sign/pades.js';
import { jwksKeys } from '../verifier/helpers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ed25519Pem, tempDir, type TestContext } from '../helpers/context.js';
import { openssl, opensslCmsVerify, pdfsig, qpdfCheck, signatureOf } from '../helpers/pades.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

/**
 * PDF receipts carry a PAdES signature over the whole file, checked with independent tools from
 * Debian's packages: poppler's pdfsig (NSS), qpdf and OpenSSL's cms.
 */

let ctx: TestContext;
let key: string;
let notary: Notary;
let dir: string;
let certFile: string;
const issuerPem = ed25519Pem();

beforeAll(async () => {
  ctx = await createTestContext({
    PUBLIC_URL: 'https://receipts.example.com',
    ISSUER_NAME: 'Example Title Co',
  });
  key = await ctx.apiKey(['verify', 'read', 'revoke', 'anchor']);
  notary = await registerNotary(ctx.repos);
  await registerIssuer(ctx.repos, issuerPem);
  dir = tempDir('pades-');
  const cert = await ctx.app.inject({ url: '/.well-known/pdf-signing-cert.pem' });
  expect(cert.statusCode).toBe(200);
  expect(cert.headers['content-type']).toContain('application/x-pem-file');
  certFile = path.join(dir, 'cert.pem');
  fs.writeFileSync(certFile, cert.body);
});
afterAll(async () => ctx.close());

async function issue(): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary) as object,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().receiptId as string;
}

async function pdfOf(id: string): Promise<Buffer> {
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${id}/pdf`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

async function logEntryOf(pdf: Buffer): Promise<unknown> {
  const read = await readBundle(new Uint8Array(pdf));
  if (!read.ok) throw new Error(read.reason);
  return (read.bundle as { logEntry?: unknown }).logEntry;
}

function save(name: string, pdf: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, pdf);
  return file;
}

/** One byte changed at `offset` (to another printable byte). */
function flipped(pdf: Buffer, offset: number): Buffer {
  const out = Buffer.from(pdf);
  out[offset] = out[offset] === 0x41 ? 0x42 : 0x41;
  return out;
}

/** The offset of the first byte of the stream data of the object that contains `marker`. */
function streamDataOffset(pdf: Buffer, marker: string): number {
  const at = pdf.indexOf(marker, 0, 'latin1');
  expect(at).toBeGreaterThan(0);
  return pdf.indexOf('stream\n', at, 'latin1') + 'stream\n'.length + 5;
}

function expectValid(pdf: Buffer, name: string): void {
  const file = save(name, pdf);
  const report = pdfsig(file);
  expect(report).toContain('Signature Type: ETSI.CAdES.detached');
  expect(report).toContain('Signature Validation: Signature is Valid.');
  expect(report).toContain('Total document signed');
  expect(report).toContain('Signer Certificate Common Name: Example Title Co PDF receipts');
  const check = qpdfCheck(file);
  expect(check.out).toContain('No syntax or stream encoding errors found');
  expect(check.status).toBe(0);
  const cms = opensslCmsVerify(dir, pdf, certFile);
  expect(cms.out).toContain('Verification successful');
  expect(cms.status).toBe(0);
}

describe('PAdES signature of PDF receipts', () => {
  it('pdfsig, qpdf and openssl cms accept every state of a receipt, each signed once', async () => {
    const id = await issue();
    const issued = await pdfOf(id);
    expectValid(issued, 'issued.pdf');
    expect(await pdfOf(id)).toEqual(issued); // kept: the same file again, not signed anew

    await ctx.app.services.anchoring.sealAll();
    const anchored = await pdfOf(id);
    expect(anchored).not.toEqual(issued);
    expect(await logEntryOf(anchored)).toBeDefined(); // the bundle attached now has its proof
    expect(await logEntryOf(issued)).toBeUndefined();
    expectValid(anchored, 'anchored.pdf');
    expect(await pdfOf(id)).toEqual(anchored);

    expect((await revokeVia(ctx.app, key, id, issuerPem)).statusCode).toBe(200);
    const revoked = await pdfOf(id);
    expect(revoked).not.toEqual(anchored);
    expectValid(revoked, 'revoked.pdf');
    expect(await pdfOf(id)).toEqual(revoked);
  });

  it('the signature is CAdES: signing-certificate-v2, no signing time, the published certificate', async () => {
    const pdf = await pdfOf(await issue());
    const { cms } = signatureOf(pdf);
    const cmsFile = save('sig.der', cms);
    const printed = openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', cmsFile]);
    expect(printed).toContain('id-smime-aa-signingCertificateV2');
    expect(printed).toContain('messageDigest');
    expect(printed).toContain('contentType');
    expect(printed).not.toContain('signingTime');
    expect(printed).toContain('eContent: <ABSENT>'); // detached
    const text = pdf.toString('latin1');
    expect(text).toContain('/SubFilter /ETSI.CAdES.detached');
    expect(text).toMatch(/\/M \(D:\d{14}\+00'00'\)/);
  });

  it('one changed byte of the attached bundle or of a page makes pdfsig report the signature invalid', async () => {
    const pdf = await pdfOf(await issue());
    const bundleByte = streamDataOffset(pdf, '/Type /EmbeddedFile');
    const contents = /\/Type \/Page\n[^>]*?\/Contents (\d+) 0 R/.exec(pdf.toString('latin1'));
    const pageByte = streamDataOffset(pdf, `\n${contents?.[1]} 0 obj\n`); // page 1's content
    for (const [name, offset] of [
      ['bundle', bundleByte],
      ['page', pageByte],
    ] as const) {
      const { byteRange } = signatureOf(pdf);
      expect(offset < (byteRange[1] ?? 0)).toBe(true); // inside the signed range
      const file = save(`tampered-${name}.pdf`, flipped(pdf, offset));
      const report = pdfsig(file);
      expect(report, name).not.toContain('Signature is Valid.');
      expect(report, name).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
    }
  });

  it('publishes the certificate the PDFs are signed with, self-issued in DATA_DIR with mode 0600', async () => {
    const key = path.join(ctx.config.dataDir, 'pdf-signing-key.pem');
    const cert = path.join(ctx.config.dataDir, 'pdf-signing-cert.pem');
    expect(fs.statSync(key).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(cert, 'utf8')).toBe(fs.readFileSync(certFile, 'utf8'));
    const subject = openssl(['x509', '-in', certFile, '-noout', '-subject']);
    expect(subject).toContain('O = Example Title Co');
  });
});

/** The PDF as rendered, before the signature's incremental update. */
function unsigned(pdf: Buffer): Buffer {
  const eof = pdf.indexOf('%%EOF', 0, 'latin1');
  expect(eof).toBeGreaterThan(0);
  return pdf.subarray(0, eof + '%%EOF\n'.length);
}

async function verdictOf(pdf: Buffer) {
  const read = await readBundle(new Uint8Array(pdf));
  if (!read.ok) throw new Error(read.reason);
  const verdict = verifyBundle(read.bundle, {
    trust: { keys: await jwksKeys(ctx) },
    pdf: { ...(read.printed ? { printed: read.printed } : {}), signature: read.signature },
  });
  return { verdict, step: verdict.steps.find((s) => s.id === 'pdf-signature') };
}

describe('the receipt key endorses the PDF signing certificate', () => {
  it("the verifier links the PDF's signer to a pinned receipt key", async () => {
    const { verdict, step } = await verdictOf(await pdfOf(await issue()));
    expect(step?.status, step?.detail).toBe('PASS');
    expect(step?.detail).toContain('Example Title Co PDF receipts');
    expect(verdict.authentic).toBe(true);
  });

  it('a PDF signed with another certificate is refused, and so is one without a signature', async () => {
    const signed = await pdfOf(await issue());
    const bare = unsigned(signed);
    const unsignedStep = await verdictOf(bare);
    expect(unsignedStep.step?.status).toBe('FAIL');
    expect(unsignedStep.step?.detail).toContain('no PAdES signature');
    expect(unsignedStep.verdict.verdict).toBe('rejected');

    const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const chain = [selfIssuedCertificate(privateKey, 'Example Title Co')];
    const other = await signPdf(bare, { privateKey, chain });
    expectValidWith(other.pdf, chain); // a valid signature, by a look-alike certificate
    const refused = await verdictOf(other.pdf);
    expect(refused.step?.status).toBe('FAIL');
    expect(refused.step?.detail).toContain('not the certificate the receipt key endorses');
    expect(refused.verdict.verdict).toBe('rejected');
    expect(refused.verdict.failedStep).toBe('pdf-signature');
  });

  it('a signed PDF changed after signing, or with bytes appended, is refused', async () => {
    const pdf = await pdfOf(await issue());
    const appended = Buffer.concat([pdf, Buffer.from('% appended\n', 'latin1')]);
    const tail = await verdictOf(appended);
    expect(tail.step?.status).toBe('FAIL');
    expect(tail.step?.detail).toContain('changed after it was signed');
    // a byte inside the signed range, outside the attachment and the page text: the /M date
    const at = pdf.indexOf('/M (D:', 0, 'latin1') + 8;
    const changed = await verdictOf(flipped(pdf, at));
    expect(changed.step?.status).toBe('FAIL');
    expect(changed.step?.detail).toContain('message digest does not match');
    // the signature value itself (outside the signed range): its last byte, as hex in /Contents
    const { byteRange, cms } = signatureOf(pdf);
    const last = (byteRange[1] ?? 0) + 1 + 2 * (cms.length - 1);
    const forged = Buffer.from(pdf);
    forged.write(((cms.at(-1) ?? 0) ^ 1).toString(16).padStart(2, '0'), last, 'latin1');
    const bad = await verdictOf(forged);
    expect(bad.step?.status).toBe('FAIL');
    expect(bad.step?.detail).toContain('does not verify under its certificate');
  });
});

function expectValidWith(pdf: Buffer, chain: Buffer[]): void {
  const file = save('other-cert.pdf', pdf);
  expect(pdfsig(file)).toContain('Signature Validation: Signature is Valid.');
  expect(chain.length).toBe(1);
}

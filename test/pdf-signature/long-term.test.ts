import fs from 'node:fs';
import path from 'node:path';
import { main } from '@verification-receipts/verify/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.js';
import { pdfsig, qpdfCheck, run, signaturesOf, unsignedTimestampOf } from '../helpers/pades.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { startTsa, type TestTsa } from '../helpers/tsa.js';

/**
 * PDF receipts as PAdES B-LTA (PDF_LONG_TERM) against a real authority (`openssl ts -reply`
 * behind HTTP, its own test CA): a DSS with the validation material, then a document time-stamp
 * over it, each an incremental update. poppler's pdfsig validates every signature and time-stamp,
 * `openssl ts -verify` each token, qpdf the file, and receipt-verify accepts the revisions.
 */

let dir: string;
let tsa: TestTsa;
let ctx: TestContext;
let key: string;
let notary: Notary;

beforeAll(async () => {
  dir = tempDir('lta-');
  tsa = await startTsa(path.join(dir, 'tsa'));
  ctx = await createTestContext({
    PUBLIC_URL: 'https://receipts.example.com',
    TSA_URLS: tsa.url,
    TSA_CERT_FILES: tsa.caFile,
    TSA_TIMEOUT_MS: '5000',
    PDF_LONG_TERM: 'true',
  });
  key = await ctx.apiKey(['verify', 'read']);
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => {
  await ctx.close();
  await tsa.close();
});

function write(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function receiptPdf(): Promise<Buffer> {
  const issued = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary) as object,
  });
  expect(issued.statusCode, issued.body).toBe(200);
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${issued.json().receiptId as string}/pdf`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** `openssl ts -verify` of a token over `data`, trusting the test TSA's CA. */
function tsVerify(name: string, data: Buffer, token: Buffer): string {
  return run('openssl', [
    'ts',
    '-verify',
    '-data',
    write(`${name}.bin`, data),
    '-in',
    write(`${name}.tsr`, token),
    '-token_in',
    '-CAfile',
    tsa.caFile,
  ]).out;
}

/** Every time-stamp token of the file, each with the bytes it stamps. */
export function tokensOf(pdf: Buffer): { data: Buffer; token: Buffer }[] {
  const [service, ...stamps] = signaturesOf(pdf);
  if (!service) throw new Error('no signature');
  const { signature, token } = unsignedTimestampOf(service.der);
  return [{ data: signature, token }, ...stamps.map((s) => ({ data: s.signed, token: s.der }))];
}

/**
 * pdfsig (poppler 22.12) validates the service's signature and reads each document time-stamp
 * (its authority, its byte range), but does not validate ETSI.RFC3161 tokens ("Unable to validate
 * this type of signature"): `openssl ts -verify` checks every token, over exactly its range.
 */
export function expectLongTermValid(pdf: Buffer, name: string, stamps: number): void {
  const file = write(`${name}.pdf`, pdf);
  const report = pdfsig(file);
  const sections = report.split(/^Signature #\d+:$/m).slice(1);
  expect(sections, report).toHaveLength(stamps + 1);
  const [service, ...archive] = sections;
  expect(service).toContain('Signature Type: ETSI.CAdES.detached');
  expect(service).toContain('Signature Validation: Signature is Valid.');
  for (const [i, stamp] of archive.entries()) {
    expect(stamp).toContain(`Signature Field Name: Archive time-stamp ${i + 1}`);
    expect(stamp).toContain('Signer Certificate Common Name: Test TSA');
    expect(stamp).not.toMatch(/Signature Validation: Signature is Invalid/);
  }
  expect(archive.at(-1)).toContain('Total document signed');
  const check = qpdfCheck(file);
  expect(check.out).toContain('No syntax or stream encoding errors found');
  const tokens = tokensOf(pdf);
  expect(tokens).toHaveLength(stamps + 1);
  for (const [i, t] of tokens.entries()) {
    expect(tsVerify(`${name}-${i}`, t.data, t.token), `token ${i}`).toContain('Verification: OK');
  }
}

async function verifyCli(file: string): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const jwks = write('jwks.json', (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
  const code = await main([file, '--jwks', jwks, '--offline', '--json'], {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  return { code, out: out.join('\n') };
}

describe('PAdES B-LTA PDF receipts', () => {
  it('carry a DSS and a document time-stamp that pdfsig, openssl ts and receipt-verify accept', async () => {
    const pdf = await receiptPdf();
    expectLongTermValid(pdf, 'lta', 1);
    const res = await verifyCli(write('lta-cli.pdf', pdf));
    expect(res.code, res.out).toBe(0);
    const report = JSON.parse(res.out);
    const step = report.steps.find((s: { id: string }) => s.id === 'pdf-signature');
    expect(step.status).toBe('PASS');
  });

  it("the DSS holds the signing certificate, the TSA's and its CA's", async () => {
    const pdf = await receiptPdf();
    const file = write('dss.pdf', pdf);
    const json = JSON.parse(
      run('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=none', file]).out,
    ) as { qpdf: [unknown, Record<string, { value?: unknown; stream?: { data?: string } }>] };
    const objects = json.qpdf[1];
    const trailer = objects.trailer?.value as { '/Root': string };
    const root = objects[`obj:${trailer['/Root']}`]?.value as { '/DSS'?: string };
    expect(root['/DSS']).toBeDefined();
    const dss = objects[`obj:${root['/DSS'] as string}`]?.value as { '/Certs': string[] };
    const certs = dss['/Certs'].map((ref) =>
      Buffer.from(objects[`obj:${ref}`]?.stream?.data ?? '', 'base64'),
    );
    const subjects = certs.map((der) =>
      run('openssl', [
        'x509',
        '-inform',
        'DER',
        '-noout',
        '-subject',
        '-in',
        write('c.der', der),
      ]).out.trim(),
    );
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/PDF receipts/),
        expect.stringMatching(/CN ?= ?Test TSA$/),
        expect.stringMatching(/CN ?= ?Test TSA CA$/),
      ]),
    );
  });
});

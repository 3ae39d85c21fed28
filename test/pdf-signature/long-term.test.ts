import fs from 'node:fs';
import path from 'node:path';
import { main } from '@verification-receipts/verify/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.js';
import { expectLongTermValid } from '../helpers/long-term.js';
import { run } from '../helpers/pades.js';
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
    expectLongTermValid(pdf, { dir, name: 'lta', caFile: tsa.caFile, stampers: ['Test TSA'] });
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

import fs from 'node:fs';
import path from 'node:path';
import { main } from '@verification-receipts/verify/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureTimestamper } from '../../src/timestamping/signature-timestamper.js';
import { trustedTsaCertificates } from '../../src/timestamping/index.js';
import { renewDuePdfs, type RenewalOptions } from '../../src/timestamping/pdf-renewal.js';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.js';
import { expectLongTermValid } from '../helpers/long-term.js';
import { openssl } from '../helpers/pades.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { startTsa, type TestTsa } from '../helpers/tsa.js';

/**
 * Renewal of a B-LTA PDF's archive time-stamp across the end of its authority's certificate, on
 * a fake clock: the first authority's certificate lasts 30 days, the renewing one's ten years.
 * Both are real `openssl ts -reply` authorities; the renewed file is checked by pdfsig, `openssl
 * ts -verify` (every token) and receipt-verify, and the file it replaced stays on record.
 */

const DAY = 24 * 60 * 60 * 1000;
let dir: string;
let short: TestTsa;
let long: TestTsa;
let ctx: TestContext;
let key: string;
let notary: Notary;
let bothCas: string;

beforeAll(async () => {
  dir = tempDir('lta-renewal-');
  short = await startTsa(path.join(dir, 'short'), 'ok', { name: 'Short TSA', days: 30 });
  long = await startTsa(path.join(dir, 'long'), 'ok', { name: 'Long TSA' });
  bothCas = path.join(dir, 'cas.pem');
  fs.writeFileSync(bothCas, fs.readFileSync(short.caFile) + fs.readFileSync(long.caFile, 'utf8'));
  ctx = await createTestContext({
    PUBLIC_URL: 'https://receipts.example.com',
    TSA_URLS: short.url,
    TSA_CERT_FILES: `${short.caFile},${long.caFile}`,
    TSA_TIMEOUT_MS: '5000',
    PDF_LONG_TERM: 'true',
  });
  key = await ctx.apiKey(['verify', 'read']);
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => {
  await ctx.close();
  await short.close();
  await long.close();
});

async function download(id: string): Promise<Buffer> {
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${id}/pdf`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

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

const notAfter = (certFile: string): Date =>
  new Date(
    openssl(['x509', '-noout', '-enddate', '-in', certFile]).replace('notAfter=', '').trim(),
  );

function job(by: TestTsa, now: Date): RenewalOptions {
  const trusted = trustedTsaCertificates([short.caFile, long.caFile]);
  return {
    store: ctx.repos.receiptPdfs,
    timestamper: signatureTimestamper([{ url: by.url, trusted, timeoutMs: 5000 }]),
    tsaCertificates: trusted,
    marginMs: 10 * DAY,
    now: () => now,
  };
}

async function versions(id: string): Promise<Buffer[]> {
  const rows = (await ctx.db
    .knex('receipt_pdf_versions')
    .where({ receipt_id: id })
    .orderBy('id')
    .select('pdf')) as { pdf: Buffer }[];
  return rows.map((r) => Buffer.from(r.pdf));
}

describe('archive time-stamp renewal', () => {
  it('renews before the certificate ends, keeps the old file, and the renewed one verifies', async () => {
    const id = await issue();
    const first = await download(id);
    const shortEnd = notAfter(short.certFile);
    const [due] = await ctx.repos.receiptPdfs.dueForRenewal(new Date(Date.now() + 400 * DAY), 10);
    expect(due?.receiptId).toBe(id);
    expect(due?.archiveExpiresAt?.getTime()).toBe(shortEnd.getTime());

    // today: 30 days left, more than the 10-day margin
    expect((await renewDuePdfs(job(long, new Date()))).renewed).toBe(0);
    // five days before the end: due
    const nearEnd = new Date(shortEnd.getTime() - 5 * DAY);
    // the same authority would not move the date: not stored
    const same = await renewDuePdfs(job(short, nearEnd));
    expect(same.renewed).toBe(0);
    expect(same.failed[0]?.reason).toMatch(/would not be relied on longer/);
    // the failed renewal keeps its lease: the file is tried again one lease (an hour) later
    expect(await renewDuePdfs(job(long, nearEnd))).toEqual({ renewed: 0, failed: [] });
    const run = await renewDuePdfs(job(long, new Date(nearEnd.getTime() + 61 * 60 * 1000)));
    expect(run).toEqual({ renewed: 1, failed: [] });

    const renewed = await download(id);
    expect(renewed.subarray(0, first.length).equals(first)).toBe(true);
    expect(renewed.length).toBeGreaterThan(first.length);
    expect(await versions(id)).toEqual([first]);
    const [after] = await ctx.repos.receiptPdfs.dueForRenewal(
      new Date(Date.now() + 4000 * DAY),
      10,
    );
    // the renewing authority's certificate or its algorithm's published end (RSA: 2035), whichever is first
    const rsaEnd = Date.parse('2035-12-31T23:59:59Z');
    expect(after?.archiveExpiresAt?.getTime()).toBe(
      Math.min(notAfter(long.certFile).getTime(), rsaEnd),
    );
    expect((await renewDuePdfs(job(long, nearEnd))).renewed).toBe(0);
    // a renewal of a file the row no longer holds (another process renewed it) changes nothing
    const stale = { ...(due as NonNullable<typeof due>), pdf: first };
    const again = { receiptHash: stale.receiptHash, pdf: Buffer.from('x') };
    expect(await ctx.repos.receiptPdfs.renew(stale, again)).toBe(false);
    expect(await versions(id)).toHaveLength(1);

    expectLongTermValid(renewed, {
      dir,
      name: 'renewed',
      caFile: bothCas,
      stampers: ['Short TSA', 'Long TSA'],
    });
    const jwks = path.join(dir, 'jwks.json');
    fs.writeFileSync(jwks, (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
    const file = path.join(dir, 'renewed.pdf');
    fs.writeFileSync(file, renewed);
    const out: string[] = [];
    const code = await main([file, '--jwks', jwks, '--offline'], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(code, out.join('\n')).toBe(0);
  });
});

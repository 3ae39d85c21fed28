import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.js';
import { startCrlAuthority, type CrlAuthority } from '../helpers/crl-authority.js';
import { expectLongTermValid } from '../helpers/long-term.js';
import { run } from '../helpers/pades.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { startTsa, type TestTsa } from '../helpers/tsa.js';
import type { RevocationFinding } from '../../src/pdf/sign/revocation.js';
import { crlFetcher, crlRevocationSource } from '../../src/timestamping/crl-client.js';
import { trustedTsaCertificates } from '../../src/timestamping/index.js';
import { renewDuePdfs } from '../../src/timestamping/pdf-renewal.js';
import { signatureTimestamper } from '../../src/timestamping/signature-timestamper.js';

/**
 * The DSS of a B-LTA PDF receipt carries the CRL its time-stamp authority's CA publishes: a CA
 * run with `openssl ca` names a CRL distribution point in the TSA certificate and publishes its
 * CRL (`openssl ca -gencrl`) from a local HTTP server. qpdf reads the DSS, `openssl crl -verify`
 * checks the embedded CRL against the CA; a revoked TSA certificate, a server that never answers,
 * an endless body and a redirect each leave a PDF the user still gets, and say so in the metrics.
 */

let dir: string;
let ca: CrlAuthority;
let tsa: TestTsa;
let ctx: TestContext;
let key: string;
let notary: Notary;
/** The PDF the first test keeps (its DSS has the CRL). */
let keptId: string;

beforeAll(async () => {
  dir = tempDir('lta-crl-');
  ca = await startCrlAuthority(path.join(dir, 'ca'));
  tsa = await startTsa(path.join(dir, 'ca'), 'ok', { files: ca.files });
  ctx = await createTestContext({
    PUBLIC_URL: 'https://receipts.example.com',
    TSA_URLS: tsa.url,
    TSA_CERT_FILES: ca.files.caFile,
    TSA_TIMEOUT_MS: '1500',
    PDF_LONG_TERM: 'true',
    METRICS_TOKEN: 'scrape-secret',
  });
  key = await ctx.apiKey(['verify', 'read']);
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => {
  await ctx.close();
  await tsa.close();
  await ca.close();
});

function write(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function receiptPdf(): Promise<{ id: string; pdf: Buffer }> {
  const issued = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary) as object,
  });
  expect(issued.statusCode, issued.body).toBe(200);
  const id = issued.json().receiptId as string;
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${id}/pdf`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(200);
  return { id, pdf: res.rawPayload };
}

type QpdfObjects = Record<string, { value?: unknown; stream?: { data?: string } }>;

/** The DSS as qpdf reads it: each list's streams, decoded from qpdf's JSON. */
function dssOf(pdf: Buffer, name: string): { certs: Buffer[]; crls: Buffer[] } | undefined {
  const file = write(`${name}.pdf`, pdf);
  const json = JSON.parse(
    run('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=none', file]).out,
  ) as { qpdf: [unknown, QpdfObjects] };
  const objects = json.qpdf[1];
  const trailer = objects.trailer?.value as { '/Root': string };
  const root = objects[`obj:${trailer['/Root']}`]?.value as { '/DSS'?: string };
  if (!root['/DSS']) return undefined;
  const dss = objects[`obj:${root['/DSS']}`]?.value as Record<string, string[] | undefined>;
  const streams = (refs: string[] | undefined) =>
    (refs ?? []).map((ref) => Buffer.from(objects[`obj:${ref}`]?.stream?.data ?? '', 'base64'));
  return { certs: streams(dss['/Certs']), crls: streams(dss['/CRLs']) };
}

async function revocationCounts(): Promise<Record<string, number>> {
  const res = await ctx.app.inject({
    url: '/metrics',
    headers: { authorization: 'Bearer scrape-secret' },
  });
  const counts: Record<string, number> = {};
  for (const m of res.body.matchAll(/^pdf_revocation_data_total\{outcome="(\w+)"\} (\d+)$/gm)) {
    counts[m[1] as string] = Number(m[2]);
  }
  return counts;
}

async function kept(id: string): Promise<boolean> {
  return (await ctx.repos.receiptPdfs.get(id, 'issued')) !== undefined;
}

describe('revocation data in the DSS', () => {
  it("holds the CA's CRL, which openssl verifies against the CA; the PDF is kept", async () => {
    const before = await revocationCounts();
    const { id, pdf } = await receiptPdf();
    const dss = dssOf(pdf, 'crl-ok');
    expect(dss?.crls).toHaveLength(1);
    expect(dss?.crls[0]?.equals(ca.crl())).toBe(true);
    const crlFile = write('embedded.crl', dss?.crls[0] ?? Buffer.alloc(0));
    const verified = run('openssl', [
      'crl',
      '-inform',
      'DER',
      '-in',
      crlFile,
      '-CAfile',
      ca.files.caFile,
      '-noout',
      '-verify',
    ]);
    expect(verified.out).toMatch(/verify OK/);
    const text = run('openssl', ['crl', '-inform', 'DER', '-in', crlFile, '-noout', '-text']).out;
    expect(text).toMatch(/Issuer: CN ?= ?CRL TSA CA/);
    expect(text).toMatch(/No Revoked Certificates/);
    expectLongTermValid(pdf, {
      dir,
      name: 'crl-lta',
      caFile: ca.files.caFile,
      stampers: ['CRL TSA'],
    });
    expect(await kept(id)).toBe(true);
    keptId = id;
    const after = await revocationCounts();
    expect((after.embedded ?? 0) - (before.embedded ?? 0)).toBe(1);
  });

  for (const mode of ['hang', 'oversized', 'redirect', 'missing', 'forged'] as const) {
    it(`a CRL server that ${mode === 'hang' ? 'never answers' : `answers ${mode}`}: the PDF comes without it and is not kept`, async () => {
      ca.mode = mode;
      try {
        const before = await revocationCounts();
        const started = Date.now();
        const { id, pdf } = await receiptPdf();
        if (mode === 'hang') expect(Date.now() - started).toBeLessThan(10_000);
        const dss = dssOf(pdf, `crl-${mode}`);
        expect(dss?.certs.length).toBeGreaterThan(0);
        expect(dss?.crls).toEqual([]);
        expectLongTermValid(pdf, {
          dir,
          name: `crl-${mode}`,
          caFile: ca.files.caFile,
          stampers: ['CRL TSA'],
        });
        expect(await kept(id)).toBe(false);
        const after = await revocationCounts();
        expect((after.unavailable ?? 0) - (before.unavailable ?? 0)).toBe(1);
      } finally {
        ca.mode = 'ok';
      }
    }, 30_000);
  }

  it('each failed fetch says why', async () => {
    const fetchCrl = crlFetcher({ timeoutMs: 1000 });
    const reasons: Record<string, string> = {};
    for (const mode of ['hang', 'oversized', 'redirect', 'missing'] as const) {
      ca.mode = mode;
      reasons[mode] = await fetchCrl(ca.crlUrl).then(
        () => 'fetched',
        (err: Error) => err.message,
      );
    }
    ca.mode = 'ok';
    expect(reasons).toEqual({
      hang: 'no answer within 1000 ms',
      oversized: 'larger than 1048576 bytes',
      redirect: 'HTTP 302',
      missing: 'HTTP 404',
    });
    await expect(fetchCrl(ca.crlUrl.replace('http:', 'https:'))).rejects.toThrow(/only http/);
    expect(Buffer.from(await fetchCrl(ca.crlUrl)).equals(ca.crl())).toBe(true);
  });

  it("a CRL under the CA's name signed by another key is refused, as openssl refuses it", async () => {
    ca.mode = 'forged';
    try {
      const forged = write(
        'forged.crl',
        Buffer.from(await crlFetcher({ timeoutMs: 1000 })(ca.crlUrl)),
      );
      const openssl = run('openssl', [
        'crl',
        '-inform',
        'DER',
        '-in',
        forged,
        '-CAfile',
        ca.files.caFile,
        '-noout',
        '-verify',
      ]);
      expect(openssl.out).toMatch(/verify failure/);
      const findings: RevocationFinding[] = [];
      const source = crlRevocationSource({ timeoutMs: 1000 }, (f) => findings.push(f));
      // the CA's and the TSA's certificates, as the DSS has them
      const data = await source([
        ...trustedTsaCertificates([ca.files.caFile]),
        ...trustedTsaCertificates([ca.files.certFile]),
      ]);
      expect(data.crls).toEqual([]);
      expect(findings).toEqual([
        {
          certificate: 'CRL TSA serial 1000',
          url: ca.crlUrl,
          outcome: 'unavailable',
          reason: `${ca.crlUrl}: the CRL's signature does not verify under its issuer's key`,
        },
      ]);
    } finally {
      ca.mode = 'ok';
    }
  });

  it('a revoked TSA certificate: the PDF is served as signed, with no archive time-stamp, and not kept', async () => {
    ca.revokeTsa();
    const crlFile = write('revoked.crl', ca.crl());
    const text = run('openssl', ['crl', '-inform', 'DER', '-in', crlFile, '-noout', '-text']).out;
    expect(text).toMatch(/Revoked Certificates:/);
    const before = await revocationCounts();
    const { id, pdf } = await receiptPdf();
    expect(dssOf(pdf, 'crl-revoked')).toBeUndefined();
    expect(pdf.includes('/DocTimeStamp')).toBe(false);
    expect(pdf.includes('/ETSI.CAdES.detached')).toBe(true);
    expect(await kept(id)).toBe(false);
    const after = await revocationCounts();
    expect((after.revoked ?? 0) - (before.revoked ?? 0)).toBe(1);
  });

  it('a kept PDF whose TSA certificate is revoked is not renewed, and the run says why', async () => {
    const trusted = trustedTsaCertificates([ca.files.caFile]);
    const findings: RevocationFinding[] = [];
    const run = await renewDuePdfs({
      store: ctx.repos.receiptPdfs,
      timestamper: signatureTimestamper([{ url: tsa.url, trusted, timeoutMs: 5000 }]),
      tsaCertificates: trusted,
      marginMs: 90 * 86_400_000,
      // past the margin before the RSA horizon (2035-12-31), so the file is due
      now: () => new Date('2035-12-01T00:00:00Z'),
      revocation: crlRevocationSource({ timeoutMs: 1500 }, (f) => findings.push(f)),
    });
    expect(run.renewed).toBe(0);
    const failed = run.failed.find((f) => f.receiptId === keptId);
    expect(failed?.reason).toMatch(
      /^CRL TSA serial 1000 is revoked at \d{4}-\d\d-\d\dT[\d:.]+Z according to its issuer's CRL \(http:\/\/127\.0\.0\.1:\d+\/ca\.crl\)$/,
    );
    expect(findings.some((f) => f.outcome === 'revoked')).toBe(true);
  });
});

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationRequest } from '../../src/contract/verification.js';
import { runCaptured } from '../helpers/cli.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { cmsSignedDeed, LEAF_EXT, NOTARY_ID, NOTARY_NAME } from '../helpers/notarial-deeds.js';
import { CA_EXT, openssl, TestPki, type Issued } from '../helpers/test-pki.js';
import { makeTsaFiles } from '../helpers/tsa.js';

/**
 * `doc.signatures` asks the notary's CA whether the signing certificate was revoked: a test CA
 * run with `openssl ca` revokes a certificate and publishes its CRL (`openssl ca -gencrl`) on a
 * local HTTP server the certificates name in their cRLDistributionPoints. A stolen notary key
 * keeps making signatures that verify and chain to the anchors; only the CRL tells them apart.
 */

let ctx: TestContext;
let dir: string;
let server: http.Server;
let crlRequests = 0;
let published: Buffer = Buffer.alloc(0);
let deeds: { good: Buffer; stolen: Buffer; stampedBeforeRevocation: Buffer; unreachable: Buffer };
const keys: Record<string, string> = {};

interface Check {
  checkId: string;
  status: string;
  details?: string;
}

const cli = (...args: string[]) => runCaptured(args, {}, ctx.app.services);

/** A tenant whose notary NOTARY_ID signs with `cert`, trusting the PEM certificates of `anchors`. */
async function tenantWith(tenant: string, cert: Issued, anchors: string[]): Promise<void> {
  keys[tenant] = await ctx.apiKey(['verify', 'read'], tenant);
  const add = await cli(
    ...['notaries', 'add', '--tenant', tenant, '--id', NOTARY_ID, '--name', NOTARY_NAME],
    ...['--state', 'TX', '--expires', '2099-12-31', '--certificate', cert.certFile],
  );
  expect(add.code, add.err).toBe(0);
  const file = path.join(dir, `${tenant}-anchors.pem`);
  fs.writeFileSync(file, anchors.map((f) => fs.readFileSync(f, 'utf8')).join(''));
  const trust = await cli('tenants', 'policy', '--tenant', tenant, '--notary-trust-anchors', file);
  expect(trust.code, trust.err).toBe(0);
}

/** Publishes the issuing CA's current CRL, as DER, where the certificates point. */
function publishCrl(pki: TestPki, issuing: Issued): void {
  const ca = ['-config', path.join(pki.dir, 'ca.cnf')];
  const signer = ['-cert', issuing.certFile, '-keyfile', issuing.keyFile];
  openssl(['ca', ...ca, ...signer, '-gencrl', '-crldays', '7', '-out', 'crl.pem'], pki.dir);
  openssl(['crl', '-in', 'crl.pem', '-outform', 'DER', '-out', 'crl.der'], pki.dir);
  published = fs.readFileSync(path.join(pki.dir, 'crl.der'));
}

beforeAll(async () => {
  ctx = await createTestContext();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notary-crl-'));
  server = http.createServer((req, res) => {
    crlRequests += 1;
    if (req.url !== '/issuing.crl') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(published);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pki = new TestPki(path.join(dir, 'pki'));
  const root = pki.issue('root', 'Revocation Test Root CA', { ext: CA_EXT });
  const issuing = pki.issue('issuing', 'Revocation Test Issuing CA', {
    issuer: root,
    ext: [
      'basicConstraints = critical,CA:TRUE,pathlen:0',
      'keyUsage = critical,keyCertSign,cRLSign',
    ],
  });
  const leaf = (name: string, crl: string) =>
    pki.issue(name, NOTARY_NAME, {
      issuer: issuing,
      ext: [...LEAF_EXT, `crlDistributionPoints = URI:${base}/${crl}`],
    });
  const good = leaf('good', 'issuing.crl');
  const stolen = leaf('stolen', 'issuing.crl');
  const unreachable = leaf('unreachable', 'moved.crl');
  const tsa = makeTsaFiles(path.join(dir, 'tsa'));
  deeds = {
    good: cmsSignedDeed(dir, good, issuing),
    stolen: cmsSignedDeed(dir, stolen, issuing),
    stampedBeforeRevocation: cmsSignedDeed(dir, stolen, issuing, tsa),
    unreachable: cmsSignedDeed(dir, unreachable, issuing),
  };
  // the signatures above exist; now the notary reports the key stolen and the CA revokes it
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const ca = ['-config', path.join(pki.dir, 'ca.cnf')];
  const signer = ['-cert', issuing.certFile, '-keyfile', issuing.keyFile];
  openssl(['ca', ...ca, ...signer, '-revoke', stolen.certFile], pki.dir);
  publishCrl(pki, issuing);
  await tenantWith('crl-good', good, [root.certFile]);
  await tenantWith('crl-stolen', stolen, [root.certFile]);
  await tenantWith('crl-stamped', stolen, [root.certFile, tsa.caFile]);
  await tenantWith('crl-unreachable', unreachable, [root.certFile]);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function issue(tenant: string, pdf: Buffer) {
  const docHash = `sha256:${createHash('sha256').update(pdf).digest('hex')}`;
  const payload: VerificationRequest = {
    bundleId: 'deed-1',
    transactionType: 'deed-transfer',
    ron: { provider: 'ExampleRON', notaryId: NOTARY_ID, commissionState: 'TX', sealPayload: 's' },
    doc: { docHash, pdfBase64: pdf.toString('base64') },
    policy: { profile: 'ron-pades-v1' },
    property: { parcelId: 'R-1', county: 'Travis', state: 'TX' },
  };
  const headers = { 'x-api-key': keys[tenant] ?? '' };
  const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/verify', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().receiptId as string;
  const read = await ctx.app.inject({ url: `/api/v1/receipt/${id}`, headers });
  const receipt = read.json().receipt as { checks: Check[]; decision: string; reasons: string[] };
  return { receipt, signatures: receipt.checks.find((c) => c.checkId === 'doc.signatures') };
}

describe('doc.signatures: revocation of the signer', () => {
  it("passes a certificate its CA's CRL does not list, and says which CRL said so", async () => {
    const { receipt, signatures } = await issue('crl-good', deeds.good);
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toMatch(
      /not revoked \(CRL http:\/\/127\.0\.0\.1:\d+\/issuing\.crl\)/,
    );
    expect(signatures?.details).toContain('"Revocation Test Issuing CA" names no CRL');
    expect(receipt.decision, JSON.stringify(receipt.checks)).toBe('ALLOW');
  });

  it('fails a revoked certificate whose signing time is only claimed: signer_certificate_revoked', async () => {
    const { receipt, signatures } = await issue('crl-stolen', deeds.stolen);
    expect(signatures?.status, signatures?.details).toBe('FAIL');
    expect(receipt.reasons).toContain('signer_certificate_revoked');
    expect(receipt.decision).toBe('BLOCK');
    expect(signatures?.details).toContain('the signing time is only claimed');
  });

  it('passes a revoked certificate when a trusted time-stamp proves the signature came first', async () => {
    const { receipt, signatures } = await issue('crl-stamped', deeds.stampedBeforeRevocation);
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('after the time-stamped signing time');
    expect(receipt.reasons).not.toContain('signer_certificate_revoked');
  });

  it('the same time-stamp does not help a tenant that does not trust its authority', async () => {
    const { receipt } = await issue('crl-stolen', deeds.stampedBeforeRevocation);
    expect(receipt.reasons).toContain('signer_certificate_revoked');
  });

  it('warns when the CRL a certificate names cannot be had: signer_revocation_unknown', async () => {
    const { receipt, signatures } = await issue('crl-unreachable', deeds.unreachable);
    expect(signatures?.status, signatures?.details).toBe('WARN');
    expect(receipt.reasons).toContain('signer_revocation_unknown');
    expect(receipt.decision).toBe('FLAG');
    expect(signatures?.details).toContain('moved.crl: HTTP 404');
  });

  it('reuses a fetched CRL for later requests instead of asking the CA each time', async () => {
    await issue('crl-good', deeds.good);
    const before = crlRequests;
    await issue('crl-good', deeds.good);
    await issue('crl-stolen', deeds.stolen);
    expect(crlRequests).toBe(before);
  });
});

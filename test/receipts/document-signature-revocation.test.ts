import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { startCrlDistributionPoint, type CrlDistributionPoint } from '../helpers/crl-authority.js';
import { deedRequest, issueDeedReceipt, registerDeedNotary } from '../helpers/deed-receipts.js';
import { cmsSignedDeed, LEAF_EXT, NOTARY_NAME } from '../helpers/notarial-deeds.js';
import { CA_EXT, TestPki, type Issued } from '../helpers/test-pki.js';
import { makeTsaFiles } from '../helpers/tsa.js';

/**
 * `doc.signatures` asks the notary's CA whether the signing certificate was revoked: a test CA
 * run with `openssl ca` (TestPki) revokes a certificate and publishes its CRL on a local HTTP
 * distribution point the certificates name in their cRLDistributionPoints. A stolen notary key
 * keeps making signatures that verify and chain to the anchors; only the CRL tells them apart.
 */

let ctx: TestContext;
let dir: string;
let point: CrlDistributionPoint;
let deeds: { good: Buffer; stolen: Buffer; stampedBeforeRevocation: Buffer; unreachable: Buffer };
const keys: Record<string, string> = {};

/** A tenant whose notary NOTARY_ID signs with `cert`, trusting the PEM certificates of `anchors`. */
async function tenantWith(tenant: string, cert: Issued, anchors: string[]): Promise<void> {
  keys[tenant] = await ctx.apiKey(['verify', 'read'], tenant);
  const file = path.join(dir, `${tenant}-anchors.pem`);
  fs.writeFileSync(file, anchors.map((f) => fs.readFileSync(f, 'utf8')).join(''));
  await registerDeedNotary(ctx, tenant, { certificate: cert.certFile, anchors: file });
}

beforeAll(async () => {
  ctx = await createTestContext();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notary-crl-'));
  const pki = new TestPki(path.join(dir, 'pki'));
  point = await startCrlDistributionPoint(pki);
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
      ext: [...LEAF_EXT, `crlDistributionPoints = URI:${point.url(crl)}`],
    });
  const good = leaf('good', 'issuing');
  const stolen = leaf('stolen', 'issuing');
  const unreachable = leaf('unreachable', 'moved');
  const tsa = makeTsaFiles(path.join(dir, 'tsa'));
  deeds = {
    good: cmsSignedDeed(dir, good, issuing),
    stolen: cmsSignedDeed(dir, stolen, issuing),
    stampedBeforeRevocation: cmsSignedDeed(dir, stolen, issuing, tsa),
    unreachable: cmsSignedDeed(dir, unreachable, issuing),
  };
  // the signatures above exist; now the notary reports the key stolen and the CA revokes it
  await new Promise((resolve) => setTimeout(resolve, 1100));
  pki.revoke(stolen, issuing);
  pki.crl(issuing, 7);
  await tenantWith('crl-good', good, [root.certFile]);
  await tenantWith('crl-stolen', stolen, [root.certFile]);
  await tenantWith('crl-stamped', stolen, [root.certFile, tsa.caFile]);
  await tenantWith('crl-unreachable', unreachable, [root.certFile]);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await point?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const issue = (tenant: string, pdf: Buffer) =>
  issueDeedReceipt(ctx, keys[tenant] ?? '', deedRequest(pdf));

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
    const before = point.requests;
    await issue('crl-good', deeds.good);
    await issue('crl-stolen', deeds.stolen);
    expect(point.requests).toBe(before);
  });
});

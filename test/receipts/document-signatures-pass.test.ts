import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { deedRequest, it } from '../helpers/deed-receipts.js';
import { NOTARY_NAME } from '../helpers/notarial-deeds.js';
import { makeTsaFiles } from '../helpers/tsa.js';

/**
 * `doc.signatures` under `ron-pades-v1`, end to end, on deeds it passes: signed by poppler's
 * pdfsig (an NSS database made with certutil and pk12util) or by `openssl cms` over a
 * hand-assembled PDF, with a test CA made by openssl (test/helpers/notarial-deeds.ts); dated by
 * a signature time-stamp token; followed by a second signature or a DSS-only revision. The
 * notary and the tenant's trust anchors are registered with the CLI, and each receipt is issued
 * by POST /api/v1/verify and read back (test/helpers/deed-receipts.ts).
 */

describe('doc.signatures (ron-pades-v1): signed deeds that pass', () => {
  it("passes the registered notary's pdfsig signature; with an opaque seal the receipt is ALLOW", async ({
    deeds,
    pades,
  }) => {
    const { receipt, signatures, check } = await pades.issue(deedRequest(deeds.signed));
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('the whole document (revision 2 of 2)');
    expect(signatures?.details).toContain("the signature dictionary's /M, only claimed");
    expect(signatures?.details).toContain(`CN=${NOTARY_NAME}`);
    expect(signatures?.details).toContain('CN=Test Notary Issuing CA');
    const fingerprint = `sha256:${createHash('sha256').update(deeds.notary.der).digest('hex')}`;
    expect(signatures?.details).toContain(fingerprint);
    expect(check('ron.seal')?.status).toBe('PASS');
    expect(check('ocr.consistency')?.details).toContain(
      'document text commission id "TX-1234567" matches',
    );
    expect(check('ocr.consistency')?.details).toContain(
      'document text notary name "Jane Q Public" matches',
    );
    expect(receipt.decision, JSON.stringify(receipt.checks)).toBe('ALLOW');
    expect(receipt.checks.map((c) => c.checkId)).toEqual([
      'doc.hash',
      'doc.signatures',
      'ron.seal',
      'ron.commission',
      'property.jurisdiction',
      'ocr.consistency',
      'registry.screening',
      'request.timestamp',
    ]);
  });

  it('passes a signature made with openssl cms over a hand-assembled PDF, dated by its signingTime', async ({
    deeds,
    pades,
  }) => {
    const { signatures } = await pades.issue(deedRequest(deeds.cmsSigned));
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('the signed signingTime attribute');
  });

  it('dates a signature by its time-stamp token when the tenant trusts the TSA, else says it is not used', async ({
    deeds,
    pades,
  }) => {
    const tsa = makeTsaFiles(`${deeds.dir}/tsa`);
    const stamped = deeds.timeStamped(tsa);
    const untrusted = await pades.issue(deedRequest(stamped));
    expect(untrusted.signatures?.status, untrusted.signatures?.details).toBe('PASS');
    expect(untrusted.signatures?.details).toContain('its signature time-stamp token is not used');
    const tenant = 'tenant-pades-tsa';
    const other = await pades.tenantWithNotary(tenant);
    const fs = await import('node:fs');
    const anchors = `${deeds.dir}/anchors-with-tsa.pem`;
    fs.writeFileSync(
      anchors,
      fs.readFileSync(deeds.anchorsFile, 'utf8') + fs.readFileSync(tsa.caFile, 'utf8'),
    );
    const set = await pades.cli(
      'tenants',
      'policy',
      '--tenant',
      tenant,
      '--notary-trust-anchors',
      anchors,
    );
    expect(set.code, set.err).toBe(0);
    const trusted = await pades.issue(deedRequest(stamped), other);
    expect(trusted.signatures?.status, trusted.signatures?.details).toBe('PASS');
    expect(trusted.signatures?.details).toContain('per a signature time-stamp token of "Test TSA"');
  });

  it('passes two signatures, the notary signing after another signer', async ({ deeds, pades }) => {
    const { signatures } = await pades.issue(deedRequest(deeds.twoSignatures));
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('signature 2 is the registered notary');
    expect(signatures?.details).toContain('revision 3 adds a signature');
  });

  it('passes a DSS-only revision after the signature', async ({ deeds, pades }) => {
    const { signatures, check } = await pades.issue(deedRequest(deeds.dssAfterSigning));
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('revision 3 adds a DSS dictionary');
    expect(check('ron.seal')?.status).toBe('PASS');
  });
});

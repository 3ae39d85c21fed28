import { describe, expect } from 'vitest';
import { deedRequest, it, TENANT } from '../helpers/deed-receipts.js';
import { appendUpdate, deedPdf, tail } from '../helpers/notarial-deeds.js';

/**
 * `doc.signatures` under `ron-pades-v1` on deeds it does not pass, each with its reason label: a
 * deed changed after signing (test/helpers/notarial-deeds.ts writes the incremental updates by
 * hand), and a signature that does not hold for the registered notary, the tenant's trust
 * anchors or the commission (test/helpers/deed-receipts.ts registers them with the CLI).
 */

describe('doc.signatures (ron-pades-v1): a deed changed after signing', () => {
  it('fails an edit appended after signing: document_modified_after_signing', async ({
    deeds,
    pades,
  }) => {
    const { receipt, signatures, check } = await pades.issue(deedRequest(deeds.editedAfterSigning));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('document_modified_after_signing');
    expect(signatures?.details).toContain("changes page 1's content");
    // no proof the notary signed this document: the opaque seal is a WARN again
    expect(check('ron.seal')?.status).toBe('WARN');
    expect(receipt.decision).toBe('BLOCK');
  });

  it('allows an object nothing refers to after signing, not one the trailer makes the document information', async ({
    deeds,
    pades,
  }) => {
    const { size } = tail(deeds.signed);
    const orphan = appendUpdate(deeds.signed, new Map([[size, '<< /Title (unused) >>']]));
    expect((await pades.issue(deedRequest(orphan))).signatures?.status).toBe('PASS');
    const info = appendUpdate(
      deeds.signed,
      new Map([[size, '<< /Title (Deed of someone else) >>']]),
      `/Info ${size} 0 R `,
    );
    const { receipt, signatures } = await pades.issue(deedRequest(info));
    expect(receipt.reasons, signatures?.details).toContain('document_modified_after_signing');
  });

  it('fails a revision that fills in an object the signed deed refers to, the reference hidden after an escaped backslash', async ({
    deeds,
    pades,
  }) => {
    // object 6 refers to object 99, which the deed does not define: (x\\) ends at its ')'
    const deed = deedPdf(undefined, ['<< /Note (x\\\\) /See 99 0 R >>']);
    const signed = deeds.sign(deed, 'notary', 'Notary');
    expect(tail(signed).size).toBeLessThan(99);
    const filled = appendUpdate(signed, new Map([[99, '<< /Title (Deed of someone else) >>']]));
    const { receipt, signatures } = await pades.issue(deedRequest(filled));
    expect(receipt.reasons, signatures?.details).toContain('document_modified_after_signing');
    expect(signatures?.details).toContain(
      'fills in object 99, which the signed document refers to',
    );
  });
});

describe('doc.signatures (ron-pades-v1): signatures that do not hold', () => {
  it('fails a certificate outside the trust anchors: signer_not_trusted', async ({
    deeds,
    pades,
  }) => {
    const { receipt, signatures } = await pades.issue(deedRequest(deeds.signedByRogue));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('signer_not_trusted');
  });

  it('fails an expired certificate: signer_certificate_expired', async ({ deeds, pades }) => {
    const { receipt, signatures } = await pades.issue(deedRequest(deeds.signedByExpired));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('signer_certificate_expired');
    expect(signatures?.details).toContain('expired at the signing time');
  });

  it("fails another notary's certificate: signer_not_registered_notary", async ({
    deeds,
    pades,
  }) => {
    const { receipt, signatures } = await pades.issue(deedRequest(deeds.signedByOther));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toEqual(['signer_not_registered_notary', 'seal_unverifiable']);
    expect(signatures?.details).toContain('not the certificate registered for notary');
  });

  it('warns on an unsigned deed: document_unsigned', async ({ deeds, pades }) => {
    const { receipt, signatures, check } = await pades.issue(deedRequest(deeds.unsigned));
    expect(signatures?.status).toBe('WARN');
    expect(receipt.reasons).toContain('document_unsigned');
    expect(check('ron.seal')?.status).toBe('WARN');
  });

  it('fails a corrupt signature: document_signature_invalid', async ({ deeds, pades }) => {
    const { receipt, signatures } = await pades.issue(deedRequest(deeds.tampered));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('document_signature_invalid');
    expect(signatures?.details).toContain('the message digest does not match');
  });

  it('fails a hostile PDF without a crash: document_unreadable', async ({ pades }) => {
    const hostile = Buffer.from(
      `%PDF-1.7\n1 0 obj\n${'['.repeat(50_000)}\nendobj\nstartxref\n9\n%%EOF\n`,
      'latin1',
    );
    const { receipt, signatures } = await pades.issue(deedRequest(hostile));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('document_unreadable');
  });

  it('fails a signature made after the commission ended: signing_time_outside_commission', async ({
    ctx,
    deeds,
    pades,
  }) => {
    const tenant = 'tenant-pades-expired';
    const other = await pades.tenantWithNotary(tenant, { commissionExpires: '2020-01-01' });
    const trust = await ctx.repos.tenantPolicies.notaryTrust(TENANT);
    await ctx.repos.tenantPolicies.setNotaryTrust(tenant, trust);
    const { receipt, signatures } = await pades.issue(deedRequest(deeds.signed), other);
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('signing_time_outside_commission');
  });

  it('under the subject rule, a certificate whose subject names the notary is theirs', async ({
    deeds,
    pades,
  }) => {
    const tenant = 'tenant-pades-subject';
    const other = await pades.tenantWithNotary(tenant, { certificateDer: undefined });
    const set = await pades.cli(
      'tenants',
      'policy',
      '--tenant',
      tenant,
      '--notary-trust-anchors',
      deeds.anchorsFile,
      '--notary-signer',
      'subject',
    );
    expect(set.code, set.err).toBe(0);
    expect((await pades.issue(deedRequest(deeds.signed), other)).signatures?.status).toBe('PASS');
    const byOther = await pades.issue(deedRequest(deeds.signedByOther), other);
    expect(byOther.receipt.reasons).toContain('signer_not_registered_notary');
    expect(byOther.signatures?.details).toContain('does not name the registered notary');
  });

  it('without trust anchors every signature is signer_not_trusted', async ({ deeds, pades }) => {
    const tenant = 'tenant-pades-untrusting';
    const other = await pades.tenantWithNotary(tenant);
    const { receipt, signatures } = await pades.issue(deedRequest(deeds.signed), other);
    expect(receipt.reasons).toContain('signer_not_trusted');
    expect(signatures?.details).toContain('no notary trust anchors');
  });
});

import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeal } from '../../src/receipts/seal.js';
import type { VerificationRequest } from '../../src/contract/verification.js';
import { runCaptured } from '../helpers/cli.js';
import { makeTsaFiles } from '../helpers/tsa.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import {
  appendUpdate,
  deedPdf,
  tail,
  NOTARY_ID,
  NOTARY_NAME,
  notarialFixtures,
  type NotarialFixtures,
} from '../helpers/notarial-deeds.js';

/**
 * `doc.signatures` under `ron-pades-v1`, end to end: deeds signed by poppler's pdfsig (an NSS
 * database made with certutil and pk12util) or by `openssl cms` over a hand-assembled PDF, with a
 * test CA made by openssl; the notary and the tenant's trust anchors registered with the CLI; the
 * receipt issued by POST /api/v1/verify and read back.
 */

let ctx: TestContext;
let key: string;
let deeds: NotarialFixtures;
/** The registered notary's SIM-ECDSA-v1 seal key. */
let sealKeyPem = '';
const TENANT = 'tenant-pades';

interface Check {
  checkId: string;
  status: string;
  details?: string;
}

const cli = (...args: string[]) => runCaptured(args, {}, ctx.app.services);

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read'], TENANT);
  deeds = notarialFixtures();
  const seal = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  sealKeyPem = seal.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const pub = `${deeds.dir}/seal.pub.pem`;
  (await import('node:fs')).writeFileSync(
    pub,
    seal.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  );
  const add = await cli(
    'notaries',
    'add',
    '--tenant',
    TENANT,
    '--id',
    NOTARY_ID,
    '--name',
    NOTARY_NAME,
    '--state',
    'TX',
    '--expires',
    '2099-12-31',
    '--public-key-file',
    pub,
    '--certificate',
    deeds.notary.certFile,
  );
  expect(add.code, add.err).toBe(0);
  const trust = await cli(
    'tenants',
    'policy',
    '--tenant',
    TENANT,
    '--notary-trust-anchors',
    deeds.anchorsFile,
  );
  expect(trust.code, trust.err).toBe(0);
  expect(trust.out).toContain('Test Notary Root CA');
}, 120_000);
afterAll(async () => ctx?.close());

function request(pdf: Buffer, profile = 'ron-pades-v1'): VerificationRequest {
  const docHash = `sha256:${createHash('sha256').update(pdf).digest('hex')}`;
  return {
    bundleId: 'deed-1',
    transactionType: 'deed-transfer',
    ron: {
      provider: 'ExampleRON',
      notaryId: NOTARY_ID,
      commissionState: 'TX',
      sealPayload: 'opaque-seal',
    },
    doc: { docHash, pdfBase64: pdf.toString('base64') },
    policy: { profile },
    property: { parcelId: 'R-1', county: 'Travis', state: 'TX' },
  };
}

async function issue(payload: VerificationRequest, apiKey = key) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': apiKey },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().receiptId as string;
  const read = await ctx.app.inject({
    url: `/api/v1/receipt/${id}`,
    headers: { 'x-api-key': apiKey },
  });
  const receipt = read.json().receipt as { checks: Check[]; decision: string; reasons: string[] };
  const check = (id: string) => receipt.checks.find((c) => c.checkId === id);
  return { receipt, check, signatures: check('doc.signatures') };
}

describe('doc.signatures (ron-pades-v1)', () => {
  it("passes the registered notary's pdfsig signature; with an opaque seal the receipt is ALLOW", async () => {
    const { receipt, signatures, check } = await issue(request(deeds.signed));
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

  it('passes a signature made with openssl cms over a hand-assembled PDF, dated by its signingTime', async () => {
    const { signatures } = await issue(request(deeds.cmsSigned));
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('the signed signingTime attribute');
  });

  it('dates a signature by its time-stamp token when the tenant trusts the TSA, else says it is not used', async () => {
    const tsa = makeTsaFiles(`${deeds.dir}/tsa`);
    const stamped = deeds.timeStamped(tsa);
    const untrusted = await issue(request(stamped));
    expect(untrusted.signatures?.status, untrusted.signatures?.details).toBe('PASS');
    expect(untrusted.signatures?.details).toContain('its signature time-stamp token is not used');
    const tenant = 'tenant-pades-tsa';
    const other = await ctx.apiKey(['verify', 'read'], tenant);
    const notary = await ctx.repos.notaries.find(TENANT, NOTARY_ID);
    if (!notary) throw new Error('notary not registered');
    await ctx.repos.notaries.upsert({ ...notary, tenant });
    const fs = await import('node:fs');
    const anchors = `${deeds.dir}/anchors-with-tsa.pem`;
    fs.writeFileSync(
      anchors,
      fs.readFileSync(deeds.anchorsFile, 'utf8') + fs.readFileSync(tsa.caFile, 'utf8'),
    );
    const set = await cli(
      'tenants',
      'policy',
      '--tenant',
      tenant,
      '--notary-trust-anchors',
      anchors,
    );
    expect(set.code, set.err).toBe(0);
    const trusted = await issue(request(stamped), other);
    expect(trusted.signatures?.status, trusted.signatures?.details).toBe('PASS');
    expect(trusted.signatures?.details).toContain('per a signature time-stamp token of "Test TSA"');
  });

  it('passes two signatures, the notary signing after another signer', async () => {
    const { signatures } = await issue(request(deeds.twoSignatures));
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('signature 2 is the registered notary');
    expect(signatures?.details).toContain('revision 3 adds a signature');
  });

  it('passes a DSS-only revision after the signature', async () => {
    const { signatures, check } = await issue(request(deeds.dssAfterSigning));
    expect(signatures?.status, signatures?.details).toBe('PASS');
    expect(signatures?.details).toContain('revision 3 adds a DSS dictionary');
    expect(check('ron.seal')?.status).toBe('PASS');
  });

  it('fails an edit appended after signing: document_modified_after_signing', async () => {
    const { receipt, signatures, check } = await issue(request(deeds.editedAfterSigning));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('document_modified_after_signing');
    expect(signatures?.details).toContain("changes page 1's content");
    // no proof the notary signed this document: the opaque seal is a WARN again
    expect(check('ron.seal')?.status).toBe('WARN');
    expect(receipt.decision).toBe('BLOCK');
  });

  it('allows an object nothing refers to after signing, not one the trailer makes the document information', async () => {
    const { size } = tail(deeds.signed);
    const orphan = appendUpdate(deeds.signed, new Map([[size, '<< /Title (unused) >>']]));
    expect((await issue(request(orphan))).signatures?.status).toBe('PASS');
    const info = appendUpdate(
      deeds.signed,
      new Map([[size, '<< /Title (Deed of someone else) >>']]),
      `/Info ${size} 0 R `,
    );
    const { receipt, signatures } = await issue(request(info));
    expect(receipt.reasons, signatures?.details).toContain('document_modified_after_signing');
  });

  it('fails a revision that fills in an object the signed deed refers to, the reference hidden after an escaped backslash', async () => {
    // object 6 refers to object 99, which the deed does not define: (x\\) ends at its ')'
    const deed = deedPdf(undefined, ['<< /Note (x\\\\) /See 99 0 R >>']);
    const signed = deeds.sign(deed, 'notary', 'Notary');
    expect(tail(signed).size).toBeLessThan(99);
    const filled = appendUpdate(signed, new Map([[99, '<< /Title (Deed of someone else) >>']]));
    const { receipt, signatures } = await issue(request(filled));
    expect(receipt.reasons, signatures?.details).toContain('document_modified_after_signing');
    expect(signatures?.details).toContain(
      'fills in object 99, which the signed document refers to',
    );
  });

  it('fails a certificate outside the trust anchors: signer_not_trusted', async () => {
    const { receipt, signatures } = await issue(request(deeds.signedByRogue));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('signer_not_trusted');
  });

  it('fails an expired certificate: signer_certificate_expired', async () => {
    const { receipt, signatures } = await issue(request(deeds.signedByExpired));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('signer_certificate_expired');
    expect(signatures?.details).toContain('expired at the signing time');
  });

  it("fails another notary's certificate: signer_not_registered_notary", async () => {
    const { receipt, signatures } = await issue(request(deeds.signedByOther));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toEqual(['signer_not_registered_notary', 'seal_unverifiable']);
    expect(signatures?.details).toContain('not the certificate registered for notary');
  });

  it('warns on an unsigned deed: document_unsigned', async () => {
    const { receipt, signatures, check } = await issue(request(deeds.unsigned));
    expect(signatures?.status).toBe('WARN');
    expect(receipt.reasons).toContain('document_unsigned');
    expect(check('ron.seal')?.status).toBe('WARN');
  });

  it('fails a corrupt signature: document_signature_invalid', async () => {
    const { receipt, signatures } = await issue(request(deeds.tampered));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('document_signature_invalid');
    expect(signatures?.details).toContain('the message digest does not match');
  });

  it('fails a hostile PDF without a crash: document_unreadable', async () => {
    const hostile = Buffer.from(
      `%PDF-1.7\n1 0 obj\n${'['.repeat(50_000)}\nendobj\nstartxref\n9\n%%EOF\n`,
      'latin1',
    );
    const { receipt, signatures } = await issue(request(hostile));
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('document_unreadable');
  });

  it('fails a signature made after the commission ended: signing_time_outside_commission', async () => {
    const tenant = 'tenant-pades-expired';
    const other = await ctx.apiKey(['verify', 'read'], tenant);
    const notary = await ctx.repos.notaries.find(TENANT, NOTARY_ID);
    if (!notary) throw new Error('notary not registered');
    await ctx.repos.notaries.upsert({ ...notary, tenant, commissionExpires: '2020-01-01' });
    const trust = await ctx.repos.tenantPolicies.notaryTrust(TENANT);
    await ctx.repos.tenantPolicies.setNotaryTrust(tenant, trust);
    const { receipt, signatures } = await issue(request(deeds.signed), other);
    expect(signatures?.status).toBe('FAIL');
    expect(receipt.reasons).toContain('signing_time_outside_commission');
  });

  it('under the subject rule, a certificate whose subject names the notary is theirs', async () => {
    const tenant = 'tenant-pades-subject';
    const other = await ctx.apiKey(['verify', 'read'], tenant);
    const notary = await ctx.repos.notaries.find(TENANT, NOTARY_ID);
    if (!notary) throw new Error('notary not registered');
    await ctx.repos.notaries.upsert({ ...notary, tenant, certificateDer: undefined });
    const set = await cli(
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
    expect((await issue(request(deeds.signed), other)).signatures?.status).toBe('PASS');
    const byOther = await issue(request(deeds.signedByOther), other);
    expect(byOther.receipt.reasons).toContain('signer_not_registered_notary');
    expect(byOther.signatures?.details).toContain('does not name the registered notary');
  });

  it('without trust anchors every signature is signer_not_trusted', async () => {
    const tenant = 'tenant-pades-untrusting';
    const other = await ctx.apiKey(['verify', 'read'], tenant);
    const notary = await ctx.repos.notaries.find(TENANT, NOTARY_ID);
    if (!notary) throw new Error('notary not registered');
    await ctx.repos.notaries.upsert({ ...notary, tenant });
    const { receipt, signatures } = await issue(request(deeds.signed), other);
    expect(receipt.reasons).toContain('signer_not_trusted');
    expect(signatures?.details).toContain('no notary trust anchors');
  });

  it('an opaque seal stays a WARN when the request names another document than the one signed', async () => {
    const payload = request(deeds.signed);
    payload.doc.docHash = `sha256:${'0'.repeat(64)}`;
    const { receipt, check } = await issue(payload);
    expect(check('doc.signatures')?.status).toBe('PASS');
    expect(receipt.reasons).toEqual(['doc_hash_mismatch', 'seal_unverifiable']);
  });

  it('a SIM-ECDSA-v1 seal that is present must still verify', async () => {
    const payload = request(deeds.signed);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    payload.ron.sealScheme = 'SIM-ECDSA-v1';
    payload.ron.sealPayload = createSeal(
      { notaryId: NOTARY_ID, commissionState: 'TX', docHash: payload.doc.docHash },
      privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    );
    const { receipt, signatures } = await issue(payload);
    expect(signatures?.status).toBe('PASS');
    expect(receipt.reasons).toEqual(['seal_invalid']);
  });

  it("receipt-verify --artifact lists the deed's own signatures under the verdict, exit code unchanged", async () => {
    const payload = request(deeds.twoSignatures);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload,
    });
    const id = res.json().receiptId as string;
    const bundle = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    const fs = await import('node:fs');
    const receiptFile = `${deeds.dir}/receipt-two.json`;
    const deedFile = `${deeds.dir}/two-signatures.pdf`;
    const jwksFile = `${deeds.dir}/jwks.json`;
    fs.writeFileSync(receiptFile, bundle.body);
    fs.writeFileSync(deedFile, deeds.twoSignatures);
    fs.writeFileSync(jwksFile, (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
    const args = ['verify', receiptFile, '--jwks', jwksFile, '--artifact', deedFile, '--offline'];
    const text = await runCaptured(args);
    const json = await runCaptured([...args, '--json']);
    const report = JSON.parse(json.out) as { exitCode: number; documentSignatures: string[] };
    expect(text.code, text.out).toBe(report.exitCode);
    expect(text.out).toMatch(/^PASS {2}artifact /m);
    expect(text.out).toContain('document two-signatures.pdf: 2 signature(s)');
    expect(text.out).toContain('1. signed by "CN=John Roe" issued by "CN=Test Notary Issuing CA"');
    expect(text.out).toContain(`2. signed by "CN=${NOTARY_NAME}"`);
    expect(text.out).toContain('verifies; covers the whole document (revision 3 of 3)');
    expect(text.out).toContain(
      'verifies; covers revision 2 of 3; after it revision 3 adds a signature',
    );
    expect(report.documentSignatures.some((l) => l.includes('signed by "CN=John Roe"'))).toBe(true);
    // the receipt's verdict does not depend on the deed's signatures: a tampered deed is just
    // another file whose hash the receipt is not about
    fs.writeFileSync(deedFile, deeds.tampered);
    const other = await runCaptured(args);
    expect(other.out).toContain(
      'does not verify; covers the whole document (revision 2 of 2); NOT VALID',
    );
  });

  it("a deed whose own signature is broken does not change the receipt's exit code", async () => {
    // a receipt that does not judge the deed's signatures (ron-standard-v1, a verifying seal)
    const payload = request(deeds.tampered, 'ron-standard-v1');
    payload.ron.sealScheme = 'SIM-ECDSA-v1';
    payload.ron.sealPayload = createSeal(
      { notaryId: NOTARY_ID, commissionState: 'TX', docHash: payload.doc.docHash },
      sealKeyPem,
    );
    const { receipt } = await issue(payload);
    expect(receipt.decision, JSON.stringify(receipt.checks)).toBe('ALLOW');
    const fs = await import('node:fs');
    const id = (receipt as unknown as { receiptId: string }).receiptId;
    const bundle = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    const receiptFile = `${deeds.dir}/receipt-tampered.json`;
    const deedFile = `${deeds.dir}/tampered.pdf`;
    const jwksFile = `${deeds.dir}/jwks-tampered.json`;
    fs.writeFileSync(receiptFile, bundle.body);
    fs.writeFileSync(deedFile, deeds.tampered);
    fs.writeFileSync(jwksFile, (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
    const args = ['verify', receiptFile, '--jwks', jwksFile, '--offline'];
    const without = await runCaptured(args);
    const withDeed = await runCaptured([...args, '--artifact', deedFile]);
    expect(without.code, without.out).toBe(0);
    expect(withDeed.code, withDeed.out).toBe(0);
    expect(withDeed.out).toMatch(/^PASS {2}artifact /m);
    expect(withDeed.out).toContain('does not verify; covers the whole document');
    expect(withDeed.out).toMatch(/^VERIFIED OFFLINE: /m);
  });

  it('leaves ron-standard-v1 as it was: no doc.signatures, an opaque seal WARNs', async () => {
    const { receipt, signatures, check } = await issue(request(deeds.signed, 'ron-standard-v1'));
    expect(signatures).toBeUndefined();
    expect(check('ron.seal')?.status).toBe('WARN');
    expect(receipt.checks.map((c) => c.checkId)).toEqual([
      'doc.hash',
      'ron.seal',
      'ron.commission',
      'property.jurisdiction',
      'ocr.consistency',
      'registry.screening',
      'request.timestamp',
    ]);
  });
});

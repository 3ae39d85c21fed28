import { describe, expect } from 'vitest';
import { createSeal } from '../../src/receipts/seal.js';
import { runCaptured } from '../helpers/cli.js';
import { deedRequest, it } from '../helpers/deed-receipts.js';
import { NOTARY_ID, NOTARY_NAME } from '../helpers/notarial-deeds.js';

/**
 * What a relying party sees of a deed's own signatures: `receipts verify --artifact` lists them
 * under the receipt's verdict, and they never change the receipt's exit code.
 */

describe('doc.signatures (ron-pades-v1): the relying party', () => {
  it("receipt-verify --artifact lists the deed's own signatures under the verdict, exit code unchanged", async ({
    ctx,
    deeds,
    pades,
  }) => {
    const payload = deedRequest(deeds.twoSignatures);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': pades.key },
      payload,
    });
    const id = res.json().receiptId as string;
    const bundle = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': pades.key },
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

  it("a deed whose own signature is broken does not change the receipt's exit code", async ({
    ctx,
    deeds,
    pades,
  }) => {
    // a receipt that does not judge the deed's signatures (ron-standard-v1, a verifying seal)
    const payload = deedRequest(deeds.tampered, 'ron-standard-v1');
    payload.ron.sealScheme = 'SIM-ECDSA-v1';
    payload.ron.sealPayload = createSeal(
      { notaryId: NOTARY_ID, commissionState: 'TX', docHash: payload.doc.docHash },
      pades.sealKeyPem,
    );
    const { receipt } = await pades.issue(payload);
    expect(receipt.decision, JSON.stringify(receipt.checks)).toBe('ALLOW');
    const fs = await import('node:fs');
    const id = (receipt as unknown as { receiptId: string }).receiptId;
    const bundle = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': pades.key },
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
});

import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { base64url, utf8 } from '../../src/encoding.js';
import { PDF_SIGNER_STATEMENT_TYPE, pdfSignatureStep } from '../../src/pdf/endorsement.js';
import type { PdfSignature } from '../../src/pdf/signature.js';
import { jcs, jwkThumbprint } from '../../src/primitives.js';

/**
 * The pdf-signature step on constructed statements: the PDF's signing certificate must be the one
 * a trusted receipt key endorses, in a statement that verifies.
 */

const CERT = `sha256:${'ab'.repeat(32)}`;
const signed: PdfSignature = { present: true, ok: true, certificate: CERT, signer: 'Example' };

function keyPair(): { secret: Uint8Array; key: Uint8Array; kid: string } {
  const secret = ed.utils.randomSecretKey();
  const key = ed.getPublicKey(secret);
  return { secret, key, kid: jwkThumbprint(key) };
}

function endorsement(
  by: { secret: Uint8Array; kid: string },
  statement: Record<string, unknown> = {},
): Record<string, unknown> {
  const full = { type: PDF_SIGNER_STATEMENT_TYPE, kid: by.kid, certificate: CERT, ...statement };
  const canonicalStatement = jcs(full) ?? '';
  const signature = base64url(ed.sign(utf8(canonicalStatement), by.secret));
  return {
    statement: full,
    canonicalStatement,
    signature: { alg: 'EdDSA', kid: by.kid, signature },
  };
}

describe('pdf-signature step', () => {
  const service = keyPair();
  const stranger = keyPair();

  it('passes when a trusted key endorses the certificate the whole file is signed with', () => {
    const result = pdfSignatureStep(signed, endorsement(service), { keys: [service.key] });
    expect(result.status, result.detail).toBe('PASS');
    expect(result.detail).toContain(`pinned kid ${service.kid}`);
  });

  it('fails when the endorsed certificate is another one', () => {
    const other = endorsement(service, { certificate: `sha256:${'cd'.repeat(32)}` });
    const result = pdfSignatureStep(signed, other, { keys: [service.key] });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('not the certificate the receipt key endorses');
  });

  it('fails when the statement is signed by a key that is not trusted', () => {
    const result = pdfSignatureStep(signed, endorsement(stranger), { keys: [service.key] });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('not a pinned key');
  });

  it('fails when the signature is not over the statement', () => {
    const forged = endorsement(service);
    const other = endorsement(service, { certificate: `sha256:${'cd'.repeat(32)}` });
    // the statement and canonical form of one, the signature of another
    forged.signature = other.signature;
    const result = pdfSignatureStep(signed, forged, { keys: [service.key] });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('signature does not verify');
  });

  it('fails when the canonical form is not that of the statement shown', () => {
    const swapped = endorsement(service);
    swapped.statement = { ...(swapped.statement as object), certificate: 'sha256:00' };
    const result = pdfSignatureStep(signed, swapped, { keys: [service.key] });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('RFC 8785');
  });

  it('fails when the statement is of another type, or the signature names another kid', () => {
    const typed = pdfSignatureStep(
      signed,
      endorsement(service, { type: 'verification-receipt-status/v1' }),
      { keys: [service.key] },
    );
    expect(typed.status).toBe('FAIL');
    // signed by the service's key, but stating that another key endorses the certificate
    const relabelled = endorsement(service, { kid: stranger.kid });
    const result = pdfSignatureStep(signed, relabelled, { keys: [service.key, stranger.key] });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('not signed');
  });

  it('fails when a signed PDF has no endorsement, or its signature does not verify', () => {
    expect(pdfSignatureStep(signed, undefined, { keys: [service.key] }).status).toBe('FAIL');
    const broken: PdfSignature = { present: true, ok: false, reason: 'digest' };
    expect(pdfSignatureStep(broken, endorsement(service), { keys: [service.key] }).status).toBe(
      'FAIL',
    );
  });

  it('fails a PDF without a signature, and only warns with allowUnsigned', () => {
    const result = pdfSignatureStep({ present: false }, undefined, { keys: [service.key] });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('nothing signs the file as a whole');
    const allowed = pdfSignatureStep({ present: false }, undefined, {
      keys: [service.key],
      allowUnsigned: true,
    });
    expect(allowed.status).toBe('WARN');
    expect(allowed.detail).toContain('--allow-unsigned-pdf');
    // allowing unsigned PDFs never excuses a signature that is there and wrong
    const modified: PdfSignature = { present: true, ok: false, reason: 'x', modified: true };
    const still = pdfSignatureStep(modified, endorsement(service), {
      keys: [service.key],
      allowUnsigned: true,
    });
    expect(still.status).toBe('FAIL');
    expect(still.detail).toMatch(/^modified_after_signing: /);
  });

  it('passes on a pinned certificate without any endorsement, and only on that one', () => {
    const pinned = pdfSignatureStep(signed, undefined, { keys: [], certificates: [CERT] });
    expect(pinned.status, pinned.detail).toBe('PASS');
    expect(pinned.detail).toContain('the pinned certificate');
    const other = pdfSignatureStep(signed, undefined, {
      keys: [],
      certificates: [`sha256:${'cd'.repeat(32)}`],
    });
    expect(other.status).toBe('FAIL');
  });
});

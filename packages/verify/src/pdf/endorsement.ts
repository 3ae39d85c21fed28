import { fromBase64url, utf8 } from '../encoding.js';
import { ed25519Verify, jcs, jwkThumbprint } from '../primitives.js';
import { step, type Step } from '../steps.js';
import type { PdfSignature } from './signature.js';

/**
 * The link between a PDF receipt's PAdES signature and what the relying party trusts. The PDF
 * signing certificate counts when it is one the relying party pinned (`--pdf-cert`, or the one
 * `--online` fetched), or when a receipt key the relying party pinned endorses it: the bundle's
 * `pdfSigner` is a statement, signed like a status statement (RFC 8785 form, Ed25519, RFC 7638
 * kid), that names the SHA-256 of the certificate. A key trusted only because its receipt is in
 * the pinned log proves that receipt's content, never the right to endorse a certificate: anyone
 * can re-sign a logged receipt's content with a key of their own. A PDF without a signature
 * fails, unless the relying party accepts unsigned PDFs (receipts made before PDFs were signed).
 */
export const PDF_SIGNER_STATEMENT_TYPE = 'verification-receipt-pdf-signer/v1';

export interface PdfSignerEndorsement {
  statement: { type: typeof PDF_SIGNER_STATEMENT_TYPE; kid: string; certificate: string };
  /** The signed bytes: RFC 8785 form of `statement`. */
  canonicalStatement: string;
  signature: { alg: 'EdDSA'; kid: string; signature: string };
}

interface Loose {
  statement?: { type?: unknown; kid?: unknown; certificate?: unknown };
  canonicalStatement?: unknown;
  signature?: { alg?: unknown; kid?: unknown; signature?: unknown } | null;
}

const NO_SIGNATURE =
  'the PDF carries no PAdES signature that verifies: nothing signs the file as a whole (every ' +
  'receipt PDF is signed; one without a signature was made before that, or had it removed); ' +
  'ask the service for the PDF again, or verify its bundle';

const UNSIGNED_ALLOWED =
  'the PDF carries no PAdES signature, accepted because of --allow-unsigned-pdf (only for PDFs ' +
  'made before receipts were signed): nothing signs the file as a whole, so its pages and ' +
  'attachment are only what the receipt inside says';

/** The reason label of a PDF changed after it was signed (docs/verification.md). */
export const MODIFIED_AFTER_SIGNING = 'modified_after_signing';

export interface PdfTrust {
  /** The Ed25519 receipt keys the relying party pinned (never a key trusted through the log). */
  keys: readonly Uint8Array[];
  /** `sha256:<hex>` of the PDF signing certificates the relying party pinned. */
  certificates?: readonly string[];
  /** Accept a PDF without a signature, with a warning. */
  allowUnsigned?: boolean;
}

export function pdfSignatureStep(
  signature: PdfSignature | undefined,
  endorsement: unknown,
  trust: PdfTrust,
): Step {
  const fail = (why: string) => step('pdf-signature', 'FAIL', why);
  if (!signature) return fail('the PDF signature was not read');
  if (!signature.present) {
    return trust.allowUnsigned
      ? step('pdf-signature', 'WARN', UNSIGNED_ALLOWED)
      : fail(NO_SIGNATURE);
  }
  if (!signature.ok && signature.modified) {
    return fail(
      `${MODIFIED_AFTER_SIGNING}: the file was changed after it was signed: ${signature.reason}`,
    );
  }
  if (!signature.ok) return fail(`the PDF signature is not valid: ${signature.reason}`);
  const named = `certificate ${signature.certificate} (${signature.signer})`;
  const covers = signature.coverage ?? 'the whole file';
  if (trust.certificates?.includes(signature.certificate)) {
    return step('pdf-signature', 'PASS', `${covers} is signed (PAdES) by the pinned ${named}`);
  }
  return endorsed(signature.certificate, named, covers, endorsement, trust.keys);
}

function endorsed(
  certificate: string,
  named: string,
  covers: string,
  endorsement: unknown,
  keys: readonly Uint8Array[],
): Step {
  const fail = (why: string) => step('pdf-signature', 'FAIL', why);
  const e = (typeof endorsement === 'object' && endorsement !== null ? endorsement : {}) as Loose;
  if (!e.statement) {
    return fail(`the PDF is signed by ${named}, which the receipt's bundle does not endorse`);
  }
  if (typeof e.canonicalStatement !== 'string' || jcs(e.statement) !== e.canonicalStatement) {
    return fail('pdfSigner.canonicalStatement is not the RFC 8785 form of its statement');
  }
  const s = e.statement;
  if (s.type !== PDF_SIGNER_STATEMENT_TYPE) return fail('pdfSigner is not a PDF signer statement');
  const sig = e.signature;
  const bytes = typeof sig?.signature === 'string' ? fromBase64url(sig.signature) : undefined;
  if (!sig || sig.alg !== 'EdDSA' || !bytes || sig.kid !== s.kid) {
    return fail('the PDF signer statement is not signed');
  }
  const key = keys.find((k) => jwkThumbprint(k) === sig.kid);
  if (!key) {
    return fail(
      `the PDF signer statement is signed by kid ${String(sig.kid)}, not a pinned key ` +
        '(pin the service keys, or its PDF certificate with --pdf-cert)',
    );
  }
  if (!ed25519Verify(bytes, utf8(e.canonicalStatement), key)) {
    return fail('the PDF signer statement signature does not verify');
  }
  if (s.certificate !== certificate) {
    return fail(`the PDF is signed by ${named}, not the certificate the receipt key endorses`);
  }
  return step(
    'pdf-signature',
    'PASS',
    `${covers} is signed (PAdES) by ${named}, endorsed by pinned kid ${sig.kid}`,
  );
}

import { fromBase64url, utf8 } from '../encoding.js';
import { ed25519Verify, jcs, jwkThumbprint } from '../primitives.js';
import { step, type Step } from '../steps.js';
import type { PdfSignature } from './signature.js';

/**
 * The link between a PDF receipt's PAdES signature and the receipt's Ed25519 key: the bundle's
 * `pdfSigner` is a statement, signed like a status statement (RFC 8785 form, Ed25519, RFC 7638
 * kid), that names the SHA-256 of the PDF signing certificate. The `pdf-signature` step passes
 * only when the whole file is signed by that certificate and the statement is signed by a key
 * the relying party trusts; a PDF without a signature is reported, not failed.
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
  'the PDF carries no PAdES signature: the receipt inside is checked on its own, but nothing ' +
  'signs the file as a whole (a PDF made before receipts were signed, or one whose signature ' +
  'was removed); ask the service for the PDF again to have a signed one';

/**
 * `keys`: the Ed25519 keys trusted to speak for the service (the pinned ones, and the bundle's
 * own once the key-trust step passed).
 */
export function pdfSignatureStep(
  signature: PdfSignature | undefined,
  endorsement: unknown,
  keys: readonly Uint8Array[],
): Step {
  const fail = (why: string) => step('pdf-signature', 'FAIL', why);
  if (!signature) return step('pdf-signature', 'SKIP', 'the PDF signature was not read');
  if (!signature.present) return step('pdf-signature', 'SKIP', NO_SIGNATURE);
  if (!signature.ok) return fail(`the PDF signature is not valid: ${signature.reason}`);
  const named = `certificate ${signature.certificate} (${signature.signer})`;
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
  if (!key)
    return fail(`the PDF signer statement is signed by kid ${String(sig.kid)}, not a trusted key`);
  if (!ed25519Verify(bytes, utf8(e.canonicalStatement), key)) {
    return fail('the PDF signer statement signature does not verify');
  }
  if (s.certificate !== signature.certificate) {
    return fail(`the PDF is signed by ${named}, not the certificate the receipt key endorses`);
  }
  return step(
    'pdf-signature',
    'PASS',
    `the whole file is signed (PAdES) by ${named}, endorsed by trusted kid ${sig.kid}`,
  );
}

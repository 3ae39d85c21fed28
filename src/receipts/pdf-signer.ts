import {
  PDF_SIGNER_STATEMENT_TYPE,
  type PdfSignerEndorsement,
} from '@verification-receipts/verify/internals';
import { signStatement, type Signer } from './signer.js';

/**
 * The receipt key's statement that PDF receipts are signed with the certificate whose SHA-256 is
 * `certificate` (`sha256:<hex>` of its DER): carried as `pdfSigner` in the bundle attached to a
 * PDF, so a verifier that pins the receipt keys knows the PDF's PAdES signer is the service's,
 * without trusting any certificate authority. Signed like a status statement (RFC 8785 form,
 * Ed25519, RFC 7638 kid); its `type` keeps it from being mistaken for a receipt or a status.
 */
export function pdfSignerEndorsement(certificate: string, signer: Signer): PdfSignerEndorsement {
  const statement: PdfSignerEndorsement['statement'] = {
    type: PDF_SIGNER_STATEMENT_TYPE,
    kid: signer.publicJwk.kid,
    certificate,
  };
  return { statement, ...signStatement(statement, signer) };
}

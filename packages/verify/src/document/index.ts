/**
 * Reading a document someone else signed (a notarised deed) rather than a receipt: its PDF
 * signatures over every revision, the X.509 path of a signer to the relying party's anchors, and
 * the text its pages print. The service's `doc.signatures` check and the verifier's
 * `--artifact` report use the same functions.
 *
 *   const read = await readDocumentSignatures(pdfBytes);
 *   if (read.ok) for (const s of read.signatures) s.cms?.signer; // parsed certificate
 *   const path = await checkSignerPath(signer, bag, anchors, signingTime);
 */
export {
  readDocumentSignatures,
  pdfDate,
  MAX_DOCUMENT_SIGNATURES,
  type DocumentSignature,
  type DocumentSignatures,
} from '../pdf/document-signatures.js';
export type { CmsSigner } from '../pdf/signature.js';
export { documentText, type DocumentText } from '../pdf/document-text.js';
export { documentSignatureReport, documentSignatureText, type SignatureLine } from './report.js';
export { checkSignerPath, type PathCheck } from '../timestamp/chain.js';
export {
  certificateFingerprint,
  certificatesFromPem,
  parseCertificate,
  type Certificate,
} from '../timestamp/x509.js';
export { nameAttributes, nameText, type NameAttribute } from '../timestamp/names.js';
export { verifyTimestampToken, type TokenCheck } from '../timestamp/token.js';
export { DerError } from '../timestamp/der.js';

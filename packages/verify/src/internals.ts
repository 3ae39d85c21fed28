/**
 * What the service that issues receipts takes from its verifier, and nothing else: the bundle's
 * format constants (so the two cannot disagree on a media type or a leaf version), the DER,
 * X.509 and RFC 3161 reading its PDF signer and time-stamp client check their answers with, the
 * reading of a document someone else signed (a notarised deed: its signatures over every
 * revision, the signer's path to the caller's anchors, its printed text), and the steps the
 * `/verify` page runs in the browser. No stability promise to anyone else: a relying party uses
 * the main entry, a monitor `./log`. CONTRIBUTING.md of the service's repository lists these
 * names, and its test/architecture/verifier-imports.unit.test.ts fails when the service's imports
 * and this list differ.
 */
export {
  BUNDLE_ATTACHMENT_NAME,
  BUNDLE_MEDIA_TYPE,
  LEAF_VERSION,
  parseBundle,
  type BundleKey,
  type ReceiptBundle,
} from './bundle.js';
export { STATUS_MEDIA_TYPE } from './status.js';
export { unreadable as unreadableVerdict } from './verdict.js';
export { akpKey, jwkKey } from './primitives.js';
export { ALGORITHM_HORIZONS } from './horizon.js';
export { reasonText } from './reasons.js';
export { failedStepSentence } from './plain.js';
export { PDF_SIGNER_STATEMENT_TYPE, type PdfSignerEndorsement } from './pdf/endorsement.js';
export type { PdfSignature } from './pdf/signature.js';
// DER, X.509 and RFC 3161
export {
  children,
  DerError,
  equalBytes,
  oidOf,
  readNode,
  readWhole,
  sequence,
  TAG,
  unsignedInteger,
  type DerNode,
} from './timestamp/der.js';
export {
  certificateFingerprint,
  certificatesFromPem,
  parseCertificate,
  type Certificate,
} from './timestamp/x509.js';
export { MAX_TOKEN_BYTES, tokenOfResponse, verifyTimestampToken } from './timestamp/token.js';
export { keyAlgorithm } from './timestamp/signature.js';
// a document someone else signed
export { readDocumentSignatures, type DocumentSignature } from './pdf/document-signatures.js';
export { checkSignerPath } from './timestamp/chain.js';
export { nameAttributes, nameText } from './timestamp/names.js';
export type { DocumentText } from './pdf/document-text.js';
export { documentSignatureLines, MAX_DOCUMENT_BYTES } from './document/report.js';

/**
 * RFC 3161 time-stamp tokens and the DER and X.509 reading they need, for the verifier and for
 * the service that checks a TSA's answer before keeping it.
 */
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
} from './der.js';
export {
  certificateFingerprint,
  certificatesFromPem,
  KEY_USAGE,
  MAX_CERTIFICATE_BYTES,
  parseCertificate,
  type Certificate,
  type CertificateExtensions,
} from './x509.js';
export {
  MAX_TOKEN_BYTES,
  tokenOfResponse,
  verifyTimestampToken,
  type StampedTime,
  type TokenCheck,
  type TokenExpectation,
} from './token.js';
export { MAX_PATH } from './chain.js';
export { keyAlgorithm } from './signature.js';
export { checkTimestamps, logSignedNote, type IndependentTime } from './steps.js';

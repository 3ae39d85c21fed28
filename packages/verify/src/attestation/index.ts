export {
  IN_TOTO_PAYLOAD_TYPE,
  isAttestation,
  preAuthEncoding,
  SIGSTORE_BUNDLE_MEDIA_TYPE,
} from './envelope.js';
export { STATEMENT_TYPE, VSA_PREDICATE_TYPE, type AttestationFacts } from './statement.js';
export { attestationReceiptHash, verifyAttestation, type AttestationOptions } from './verify.js';
export { attestationPolicyFailures, withAttestationPolicy } from './policy.js';

/**
 * @verification-receipts/verify: check a verification receipt without trusting its issuer.
 *
 *   const read = await readBundle(bytes);            // a PDF receipt or a bundle (JSON)
 *   const verdict = verifyBundle(read.bundle, { trust: { keys } });
 *   verdict.verdict;                                 // 'accepted' | 'caution' | 'rejected'
 */
export { verifyBundle, type VerifyOptions } from './verify.js';
export {
  attestationReceiptHash,
  isAttestation,
  preAuthEncoding,
  verifyAttestation,
  withAttestationPolicy,
  IN_TOTO_PAYLOAD_TYPE,
  SIGSTORE_BUNDLE_MEDIA_TYPE,
  STATEMENT_TYPE,
  VSA_PREDICATE_TYPE,
  type AttestationFacts,
  type AttestationOptions,
} from './attestation/index.js';
export { readBundle, MAX_BUNDLE_BYTES, type EvidenceRead } from './read.js';
export { verifyArtifact } from './artifact.js';
export {
  verifyStatus,
  DEFAULT_MAX_STATUS_AGE_SECONDS,
  STATUS_MEDIA_TYPE,
  type CurrentStatus,
  type StatusCheck,
  type StatusResult,
} from './status.js';
export {
  decisionOf,
  unreadable as unreadableVerdict,
  type Decision,
  type Verdict,
  type VerdictLabel,
} from './verdict.js';
export {
  hasTrustRoot,
  type CosignatureType,
  type PinnedLog,
  type PinnedWitness,
  type TrustRoot,
} from './trust.js';
export type { Step, StepId, StepStatus } from './steps.js';
export {
  BUNDLE_ATTACHMENT_NAME,
  BUNDLE_MEDIA_TYPE,
  LEAF_VERSION,
  parseBundle,
  type BundleKey,
  type BundlePqSignature,
  type BundleLogEntry,
  type ReceiptBundle,
} from './bundle.js';
export {
  akpKey,
  akpThumbprint,
  jwkKey,
  jwkThumbprint,
  mlDsa44Verify,
  type MlDsa44Jwk,
} from './primitives.js';
export {
  PDF_SIGNER_STATEMENT_TYPE,
  pdfSignatureStep,
  type PdfSignerEndorsement,
} from './pdf/endorsement.js';
export type { PdfSignature } from './pdf/signature.js';
export { checkPdfRevisions } from './pdf/revision-check.js';
export { checkTimestamps, type IndependentTime } from './timestamp/steps.js';
export {
  ALGORITHM_HORIZONS,
  evidenceHorizon,
  horizonSentence,
  type EvidenceHorizon,
  type HorizonFacts,
} from './horizon.js';
export { certificatesFromPem } from './timestamp/x509.js';
export { KNOWN_REASONS, reasonText } from './reasons.js';
export { failedStepSentence, plainStep, plainVerdict, type PlainVerdict } from './plain.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  WEBHOOK_TOLERANCE_SECONDS,
  MAX_WEBHOOK_BODY_BYTES,
  type VerifiedWebhook,
  type WebhookVerifyOptions,
} from './webhook.js';

/**
 * @verification-receipts/verify: check a verification receipt without trusting its issuer.
 *
 *   const read = await readBundle(bytes);            // a PDF receipt or a bundle (JSON)
 *   const verdict = verifyBundle(read.bundle, { trust: { keys } });
 *   verdict.verdict;                                 // 'accepted' | 'caution' | 'rejected'
 *
 * What a relying party's code calls, and the types of what it gets back: README.md lists these
 * names and test/exports.unit.test.ts holds the two to each other. A monitor's log primitives are
 * the `./log` subpath; what the issuing service itself uses is `./internals`.
 */
export { readBundle, type EvidenceRead } from './read.js';
export { verifyBundle, type VerifyOptions } from './verify.js';
export { checkTimestamps, type IndependentTime } from './timestamp/steps.js';
export { verifyArtifact } from './artifact.js';
export { verifyStatus, type CurrentStatus, type StatusCheck, type StatusResult } from './status.js';
export { verifyAttestation, type AttestationOptions } from './attestation/index.js';
export { plainStep, plainVerdict, type PlainVerdict } from './plain.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedWebhook,
  type WebhookVerifyOptions,
} from './webhook.js';
export type { TrustRoot } from './trust.js';
export type { Verdict, VerdictLabel } from './verdict.js';
export type { EvidenceHorizon } from './horizon.js';
export type { Step, StepId } from './steps.js';

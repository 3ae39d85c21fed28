import type { CurrentStatus } from '../status.js';
import { currentStatusOf, type StatusInput } from '../status-source.js';
import { step, type Step } from '../steps.js';
import type { TrustRoot } from '../trust.js';
import { inForce, type Verdict } from '../verdict.js';
import {
  dsseSignatureStep,
  envelopeOf,
  hintedKey,
  payloadTypeStep,
  SIGSTORE_BUNDLE_MEDIA_TYPE,
} from './envelope.js';
import { statementStep, subjectStep, type AttestationFacts } from './statement.js';

/**
 * Verification of a receipt's attestation (a Sigstore bundle v0.3 holding a SLSA VSA v1), fail
 * closed: the envelope, the pinned key its hint names, the DSSE signature over the exact payload
 * bytes, the statement, its subject; then the stated result and, online, the receipt's current
 * status. Any failed step: not verified (exit 1); FAILED or revoked: authentic, rejected (exit 3);
 * PASSED with the status unknown: caution (exit 3, or 0 when the unknown status is accepted).
 */

export interface AttestationOptions {
  trust: TrustRoot;
  /**
   * The public status of the receipt the attestation names, fetched or supplied, or why it could
   * not be fetched.
   */
  status?: StatusInput;
  /** Accept an unknown current status (--offline): a PASSED attestation is then exit 0. */
  acceptUnknownStatus?: boolean;
  now?: Date;
  maxStatusAgeSeconds?: number;
  /** How the trust root is described in the report. */
  trustText?: string;
}

function statusSteps(
  facts: AttestationFacts | undefined,
  options: AttestationOptions,
): { steps: Step[]; current: CurrentStatus } {
  const { status } = options;
  return currentStatusOf(facts?.receiptHash && status ? { given: status } : {}, {
    receiptHash: facts?.receiptHash ?? '',
    keys: options.trust.keys ?? [],
    ...(options.now ? { now: options.now } : {}),
    ...(options.maxStatusAgeSeconds !== undefined
      ? { maxAgeSeconds: options.maxStatusAgeSeconds }
      : {}),
  });
}

/** The steps in order; a step after a failed one is not run (its input is not trusted). */
function attestationSteps(
  input: unknown,
  trust: TrustRoot,
): { steps: Step[]; facts?: AttestationFacts } {
  const read = envelopeOf(input);
  if (!read.ok) return { steps: [step('format', 'FAIL', read.reason)] };
  const { envelope } = read;
  const steps = [
    step('format', 'PASS', `attestation, ${SIGSTORE_BUNDLE_MEDIA_TYPE} with a DSSE envelope`),
    payloadTypeStep(envelope),
  ];
  const key = hintedKey(envelope, trust);
  steps.push(key.step, dsseSignatureStep(envelope, key.key));
  if (steps.some((s) => s.status === 'FAIL')) return { steps };
  const statement = statementStep(envelope.payload);
  steps.push(statement.step);
  if (!statement.facts) return { steps };
  steps.push(subjectStep(statement.facts, statement.subject));
  return { steps, facts: statement.facts };
}

function judge(
  facts: AttestationFacts,
  current: CurrentStatus,
  acceptUnknown: boolean,
): Pick<Verdict, 'verdict' | 'exitCode' | 'summary'> {
  if (current.state === 'revoked')
    return {
      verdict: 'rejected',
      exitCode: 3,
      summary: `AUTHENTIC BUT REVOKED: ${current.detail}`,
    };
  if (facts.verificationResult === 'FAILED')
    return {
      verdict: 'rejected',
      exitCode: 3,
      summary: 'AUTHENTIC, VERIFICATION FAILED: the attestation states verificationResult FAILED',
    };
  const levels = facts.verifiedLevels.join(', ');
  return inForce(`authentic attestation, PASSED (${levels})`, current, acceptUnknown);
}

export function verifyAttestation(input: unknown, options: AttestationOptions): Verdict {
  const { steps, facts } = attestationSteps(input, options.trust);
  const online = statusSteps(facts, options);
  const all = [...steps, ...online.steps];
  const base = {
    unreadable: false,
    currentStatus: online.current,
    trust: options.trustText ?? options.trust.source ?? 'none',
    insecure: false,
    steps: all,
    ...(facts ? { attestation: facts } : {}),
  };
  const failed = all.find((s) => s.status === 'FAIL' && s.id !== 'status');
  if (failed || !facts) {
    const which = failed ?? step('statement', 'FAIL', 'no statement');
    return {
      ...base,
      verdict: 'rejected',
      exitCode: 1,
      summary: `NOT VERIFIED: the ${which.id} step failed: ${which.detail}`,
      authentic: false,
      failedStep: which.id,
    };
  }
  const accept = options.acceptUnknownStatus === true;
  return { ...base, ...judge(facts, online.current, accept), authentic: true };
}

/** The receipt hash an attestation names, read before it is verified (to fetch its status). */
export function attestationReceiptHash(input: unknown): string | undefined {
  const read = envelopeOf(input);
  if (!read.ok) return undefined;
  return statementStep(read.envelope.payload).facts?.receiptHash;
}

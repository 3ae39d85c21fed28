import { failedStepSentence } from './plain-steps.js';
import { reasonText } from './reasons.js';
import type { Verdict } from './verdict.js';

export { failedStepSentence, plainStep } from './plain-steps.js';

/**
 * A verdict in plain words: the label scripts match on (VERIFIED, NOT VERIFIED, CAUTION, ...),
 * one sentence a non-developer can act on, and the technical detail that says how the verifier
 * got there. `summary` keeps the technical line as it always was; this is the layer for people.
 */
export interface PlainVerdict {
  /** The verdict's upper-case label, e.g. `NOT VERIFIED` or `AUTHENTIC, DECISION BLOCK`. */
  label: string;
  /** `LABEL: sentence.`: the line a person reads first. */
  line: string;
  /** The technical detail, e.g. `artifact: the file's SHA-256 is ...`. */
  technical: string;
  /** Each reason label the receipt carries, with its meaning. */
  reasons: { label: string; meaning: string }[];
}

const INSECURE = /^(INSECURE \([^)]*\)\. )/;

/** `LABEL: rest` of a summary; a summary without a colon is all label. */
function split(summary: string): { prefix: string; label: string; rest: string } {
  const prefix = INSECURE.exec(summary)?.[1] ?? '';
  const body = summary.slice(prefix.length);
  const m = /^([A-Z][A-Z ,]*?): ([\s\S]*)$/.exec(body);
  return m
    ? { prefix, label: m[1] as string, rest: m[2] as string }
    : { prefix, label: body, rest: '' };
}

const GENUINE = 'the receipt is genuine';

/** The sentence of an authentic receipt's verdict, by its label. */
function authenticSentence(v: Verdict, label: string, rest: string): string {
  const kind = v.attestation ? 'attestation' : 'receipt';
  const passed = v.attestation ? 'genuine attestation, PASSED' : 'genuine receipt, decision ALLOW';
  if (label === 'VERIFIED') return `${passed}: the checks passed and it has not been revoked`;
  if (label === 'VERIFIED OFFLINE')
    return `${passed}: the checks passed; whether it was revoked since was not checked, as --offline asked`;
  if (label === 'CAUTION')
    return /not in the pinned log/.test(rest)
      ? `the ${kind} is genuine and the checks passed, but it is not in the public log you pinned yet: check again later`
      : `the ${kind} is genuine and the checks passed, but whether it was revoked since is not known`;
  if (label === 'AUTHENTIC BUT REVOKED') return `${GENUINE}, but it was revoked: do not rely on it`;
  if (label === 'AUTHENTIC, DECISION BLOCK' || label === 'AUTHENTIC, VERIFICATION FAILED')
    return `${GENUINE}, and it records that the checks failed: do not proceed`;
  if (label === 'AUTHENTIC, DECISION FLAG')
    return `${GENUINE}, and it records gaps in the evidence: review the reasons before relying on it`;
  if (label === 'AUTHENTIC, CI POLICY NOT MET')
    return `${GENUINE}, but it does not show the build you asked about`;
  return `${GENUINE}, but its decision is not one this verifier knows`;
}

function sentenceOf(v: Verdict, label: string, rest: string): string {
  if (v.unreadable) return 'this file is not a receipt this verifier can read';
  if (!v.authentic && v.exitCode === 2)
    return 'nothing was given to check the receipt against: name the service you trust (--online URL or --jwks FILE)';
  if (!v.authentic) {
    const failed = v.steps.find((s) => s.id === v.failedStep);
    const sentence = failedStepSentence(v.failedStep ?? 'format', failed?.detail);
    return sentence.charAt(0).toLowerCase() + sentence.slice(1);
  }
  return authenticSentence(v, label, rest);
}

/** The technical line: the failed step and its detail, or the summary after its label. */
function technicalOf(v: Verdict, rest: string): string {
  if (!v.authentic && v.failedStep) {
    const failed = v.steps.find((s) => s.id === v.failedStep);
    if (failed) return `${failed.id}: ${failed.detail}`;
  }
  return rest;
}

export function plainVerdict(v: Verdict): PlainVerdict {
  const { prefix, label, rest } = split(v.summary);
  const sentence = sentenceOf(v, label, rest);
  const reasons = (v.decision?.reasons ?? []).map((l) => ({ label: l, meaning: reasonText(l) }));
  return {
    label,
    line: `${prefix}${label}: ${sentence}.`,
    technical: technicalOf(v, rest),
    reasons,
  };
}

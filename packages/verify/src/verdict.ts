import type { AttestationFacts } from './attestation/statement.js';
import type { EvidenceHorizon } from './horizon.js';
import type { CurrentStatus } from './status.js';
import type { Step, StepId } from './steps.js';

/**
 * One verdict from three facts: is the receipt authentic (every cryptographic step passed under
 * a pinned trust root), what did it decide, and is it still in force. The exit codes and the
 * page's banner both come from here, so the two never disagree.
 */
export type VerdictLabel = 'accepted' | 'caution' | 'rejected';

export interface Decision {
  decision: string;
  /** The spec's status for the decision: clean, compliance_gap or failure. */
  status: string;
  reasons: string[];
}

export interface Verdict {
  /**
   * accepted: authentic, ALLOW, known to be active; caution: authentic but FLAG, status unknown
   * or not yet in the pinned log; rejected: the rest.
   */
  verdict: VerdictLabel;
  /**
   * 0 authentic, ALLOW and known not to be revoked (or the unknown status accepted on request);
   * 1 not authentic; 2 unreadable or no trust root; 3 authentic but FLAG, BLOCK, revoked, status
   * unknown or not yet in the pinned log.
   */
  exitCode: 0 | 1 | 2 | 3;
  /** One plain sentence for a person. */
  summary: string;
  authentic: boolean;
  unreadable: boolean;
  failedStep?: StepId;
  decision?: Decision;
  currentStatus: CurrentStatus;
  /** Where the trusted keys came from. */
  trust: string;
  /** Trust was ignored on request: the verdict proves integrity only. */
  insecure: boolean;
  steps: Step[];
  receipt?: Record<string, unknown>;
  /** What a verified attestation (Sigstore bundle with a SLSA VSA) states, when one was checked. */
  attestation?: AttestationFacts;
  /** Until when an authentic receipt's evidence holds, and the algorithms it relied on. */
  evidence?: EvidenceHorizon;
  /** The CI identity policy asked for on the command line, when one was. */
  policy?: { met: boolean; failures: string[] };
}

const STATUS_OF: Record<string, string> = {
  ALLOW: 'clean',
  FLAG: 'compliance_gap',
  BLOCK: 'failure',
};

export function decisionOf(receipt: Record<string, unknown>): Decision {
  const decision = String(receipt.decision ?? '');
  const reasons = Array.isArray(receipt.reasons) ? receipt.reasons.map(String) : [];
  return { decision, status: STATUS_OF[decision] ?? 'unknown', reasons };
}

/** A FAIL of these steps means the receipt is not authentic; a revoked status does not. */
const notAuthentic = (s: Step): boolean => s.status === 'FAIL' && s.id !== 'status';

export interface Facts {
  steps: Step[];
  receipt: Record<string, unknown>;
  currentStatus: CurrentStatus;
  trust: string;
  insecure: boolean;
  /** Nothing was pinned and trust was not ignored on request: a usage error, not a forgery. */
  noTrustRoot?: boolean;
  /** The relying party accepts an unknown current status (--offline). */
  acceptUnknownStatus?: boolean;
  /** Set when a log is pinned and the receipt is not in it yet: why. */
  notInPinnedLog?: string;
}

/** Why a status is unknown, and what to pass to know it. */
const HOW_TO_CHECK =
  'check it with --online URL or a saved signed status (--status FILE), or accept an unknown ' +
  'status with --offline';

export function conclude(facts: Facts): Verdict {
  const failed = facts.steps.find(notAuthentic);
  const decision = decisionOf(facts.receipt);
  const { steps, receipt, currentStatus, trust, insecure } = facts;
  const base = { steps, receipt, currentStatus, trust, insecure, unreadable: false, decision };
  if (failed) {
    const summary = `NOT VERIFIED: the ${failed.id} step failed: ${failed.detail}`;
    return {
      ...base,
      verdict: 'rejected',
      // without any trust root nothing could be verified: the command line lacks a flag
      exitCode: facts.noTrustRoot === true ? 2 : 1,
      summary,
      authentic: false,
      failedStep: failed.id,
    };
  }
  const { verdict, exitCode, summary } = judge(decision, facts);
  const loud = facts.insecure ? 'INSECURE (trust ignored: integrity only, not origin). ' : '';
  return { ...base, verdict, exitCode, summary: `${loud}${summary}`, authentic: true };
}

type Judged = Pick<Verdict, 'verdict' | 'exitCode' | 'summary'>;

function judge(d: Decision, facts: Facts): Judged {
  const current = facts.currentStatus;
  const reasons = d.reasons.length > 0 ? ` (${d.reasons.join(', ')})` : '';
  if (current.state === 'revoked') {
    return {
      verdict: 'rejected',
      exitCode: 3,
      summary: `AUTHENTIC BUT REVOKED: ${current.detail}`,
    };
  }
  if (d.decision === 'BLOCK') {
    return {
      verdict: 'rejected',
      exitCode: 3,
      summary: `AUTHENTIC, DECISION BLOCK: the checks failed${reasons}`,
    };
  }
  if (d.decision === 'FLAG') {
    return {
      verdict: 'caution',
      exitCode: 3,
      summary: `AUTHENTIC, DECISION FLAG: passed with gaps${reasons}`,
    };
  }
  if (d.decision !== 'ALLOW') {
    return {
      verdict: 'rejected',
      exitCode: 3,
      summary: `AUTHENTIC, UNKNOWN DECISION ${d.decision}`,
    };
  }
  if (facts.notInPinnedLog !== undefined) {
    return {
      verdict: 'caution',
      exitCode: 3,
      summary: `CAUTION: authentic, decision ALLOW, but ${facts.notInPinnedLog}`,
    };
  }
  return inForce('authentic, decision ALLOW', current, facts.acceptUnknownStatus === true);
}

/**
 * An authentic, favourable result: accepted (exit 0) only when the status is known to be active;
 * an unknown status is caution, exit 3, unless the relying party accepts it (--offline), which
 * the verdict line then says.
 */
export function inForce(what: string, current: CurrentStatus, acceptUnknown: boolean): Judged {
  if (current.state === 'active')
    return { verdict: 'accepted', exitCode: 0, summary: `VERIFIED: ${what}, ${current.detail}` };
  if (acceptUnknown) {
    return {
      verdict: 'caution',
      exitCode: 0,
      summary: `VERIFIED OFFLINE: ${what}; the current status was not checked (${current.detail}): accepted as unknown by --offline`,
    };
  }
  return {
    verdict: 'caution',
    exitCode: 3,
    summary: `CAUTION: ${what}, but the current status was not checked (${current.detail}): ${HOW_TO_CHECK}`,
  };
}

/** The verdict on input that is not a receipt bundle or PDF receipt this verifier reads. */
export function unreadable(reason: string, trust: string): Verdict {
  return {
    verdict: 'rejected',
    exitCode: 2,
    summary: `UNREADABLE: ${reason}`,
    authentic: false,
    unreadable: true,
    failedStep: 'format',
    currentStatus: { state: 'not-checked', detail: 'not checked' },
    trust,
    insecure: false,
    steps: [{ id: 'format', status: 'FAIL', detail: reason }],
  };
}

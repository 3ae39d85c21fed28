import { horizonSentence } from '../horizon.js';
import { plainStep, plainVerdict } from '../plain.js';
import type { Step } from '../steps.js';
import type { Verdict } from '../verdict.js';

/** Continuation lines start under a step's detail column. */
const UNDER_DETAIL = ' '.repeat(23);

/** The verdict for a person (one line per step, the verdict last) or as one JSON object. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export function printVerdict(
  io: Io,
  verdict: Verdict,
  json: boolean,
  /** The --artifact's own signatures (a signed PDF), shown under the verdict. */
  documentSignatures?: string[],
): void {
  if (json) {
    const report = jsonReport(verdict);
    io.out(JSON.stringify(documentSignatures ? { ...report, documentSignatures } : report));
    return;
  }
  const plain = plainVerdict(verdict);
  const r = verdict.receipt;
  if (r) {
    io.out(`receipt ${String(r.receiptId)}, issued ${String(r.createdAt)}`);
    const d = verdict.decision;
    if (d) {
      const reasons = d.reasons.length > 0 ? `, reasons: ${d.reasons.join(', ')}` : '';
      io.out(`decision ${d.decision} (${d.status})${reasons}`);
      for (const reason of plain.reasons) io.out(`  ${reason.label}: ${reason.meaning}`);
    }
  }
  const a = verdict.attestation;
  if (a) {
    io.out(`attestation of receipt ${String(a.receiptHash)}, verified ${String(a.timeVerified)}`);
    io.out(`verification result ${a.verificationResult} (${a.verifiedLevels.join(', ')})`);
  }
  io.out(`trust: ${verdict.trust}`);
  for (const s of verdict.steps) printStep(io, s);
  io.out(`current status: ${verdict.currentStatus.detail}`);
  if (verdict.evidence) io.out(horizonSentence(verdict.evidence));
  if (verdict.policy) {
    if (verdict.policy.met) io.out('PASS  ci-policy        every CI policy condition is met');
    for (const failure of verdict.policy.failures) io.out(`FAIL  ci-policy        ${failure}`);
  }
  io.out(plain.line);
  if (plain.technical) io.out(`  ${plain.technical}`);
  for (const line of documentSignatures ?? []) io.out(line);
}

/** A step on one line; a failing or warning one in plain words first, its detail under it. */
function printStep(io: Io, s: Step): void {
  const head = `${s.status.padEnd(4)}  ${s.id.padEnd(16)} `;
  const sentence = plainStep(s);
  if (sentence === undefined) {
    io.out(`${head}${s.detail}`);
    return;
  }
  io.out(`${head}${sentence}.`);
  io.out(`${UNDER_DETAIL}${s.detail}`);
}

/** The --json object (verify-result.schema.json): `plain` adds the words for people. */
export function jsonReport(v: Verdict): Record<string, unknown> {
  const r = v.receipt ?? {};
  const plain = plainVerdict(v);
  return {
    verdict: v.verdict,
    exitCode: v.exitCode,
    summary: v.summary,
    plain: { summary: plain.line, technical: plain.technical, reasons: plain.reasons },
    authentic: v.authentic,
    unreadable: v.unreadable,
    ...(v.failedStep ? { failedStep: v.failedStep } : {}),
    ...(v.decision ? { decision: v.decision } : {}),
    currentStatus: v.currentStatus,
    trust: v.trust,
    insecure: v.insecure,
    ...(v.receipt
      ? {
          receipt: {
            receiptId: r.receiptId,
            receiptHash: r.receiptHash,
            createdAt: r.createdAt,
            policyProfile: r.policyProfile,
            subject: r.subject,
          },
        }
      : {}),
    ...(v.attestation ? { attestation: v.attestation } : {}),
    ...(v.evidence ? { evidence: v.evidence } : {}),
    ...(v.policy ? { policy: v.policy } : {}),
    steps: v.steps.map((s) => {
      const sentence = plainStep(s);
      return sentence === undefined ? s : { ...s, plain: `${sentence}.` };
    }),
  };
}

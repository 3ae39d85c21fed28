import type { Verdict } from '../verdict.js';

/** The verdict for a person (one line per step, the verdict last) or as one JSON object. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export function printVerdict(io: Io, verdict: Verdict, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(jsonReport(verdict)));
    return;
  }
  const r = verdict.receipt;
  if (r) {
    io.out(`receipt ${String(r.receiptId)}, issued ${String(r.createdAt)}`);
    const d = verdict.decision;
    if (d) {
      const reasons = d.reasons.length > 0 ? `, reasons: ${d.reasons.join(', ')}` : '';
      io.out(`decision ${d.decision} (${d.status})${reasons}`);
    }
  }
  const a = verdict.attestation;
  if (a) {
    io.out(`attestation of receipt ${String(a.receiptHash)}, verified ${String(a.timeVerified)}`);
    io.out(`verification result ${a.verificationResult} (${a.verifiedLevels.join(', ')})`);
  }
  io.out(`trust: ${verdict.trust}`);
  for (const s of verdict.steps) io.out(`${s.status.padEnd(4)}  ${s.id.padEnd(16)} ${s.detail}`);
  io.out(`current status: ${verdict.currentStatus.detail}`);
  if (verdict.policy) {
    if (verdict.policy.met) io.out('PASS  ci-policy        every CI policy condition is met');
    for (const failure of verdict.policy.failures) io.out(`FAIL  ci-policy        ${failure}`);
  }
  io.out(verdict.summary);
}

/** The --json object (docs/verify-result.schema.json). */
export function jsonReport(v: Verdict): Record<string, unknown> {
  const r = v.receipt ?? {};
  return {
    verdict: v.verdict,
    exitCode: v.exitCode,
    summary: v.summary,
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
    ...(v.policy ? { policy: v.policy } : {}),
    steps: v.steps,
  };
}

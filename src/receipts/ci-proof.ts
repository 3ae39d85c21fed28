import type { ReceiptRecord } from './ports.js';
import type { StoredReceipt } from './types.js';

/**
 * What a CI receipt proves about the run it is about, and so for which repository it may speak.
 * Only a passing `ci.identity` proves anything: a run's OIDC token whose claims (repository
 * included) match the request, or the GitHub App's signed webhook of an installation on the
 * repository. A self-reported receipt, or one whose token was refused, proves nothing: anyone
 * with an API key can write one about any repository.
 */
export type CiProof =
  | { source: 'oidc'; repository: string; headSha: string }
  | { source: 'github-app'; repository: string; headSha: string; installationId: number };

interface CiSubject {
  kind?: unknown;
  repository?: unknown;
  headSha?: unknown;
  identity?: { source?: unknown; repository?: unknown; installationId?: unknown };
}

/** The proof a CI receipt carries (repository lower-cased), or undefined when it proves none. */
export function ciProofOf(receipt: StoredReceipt): CiProof | undefined {
  const subject = receipt.subject as CiSubject;
  if (subject.kind !== 'ci-workflow-run') return undefined;
  if (typeof subject.repository !== 'string' || typeof subject.headSha !== 'string') {
    return undefined;
  }
  const check = receipt.checks.find((c) => c.checkId === 'ci.identity');
  if (check?.status !== 'PASS') return undefined;
  const identity = subject.identity ?? {};
  const repository = subject.repository.toLowerCase();
  const headSha = subject.headSha;
  if (identity.source === 'oidc') {
    // the token's repository, when recorded, is the one proven (a passing check means they match)
    const claimed = identity.repository;
    if (claimed !== undefined && String(claimed).toLowerCase() !== repository) return undefined;
    return { source: 'oidc', repository, headSha };
  }
  const installationId = identity.installationId;
  if (identity.source === 'github-app' && Number.isSafeInteger(installationId)) {
    return { source: 'github-app', repository, headSha, installationId: installationId as number };
  }
  return undefined;
}

/** A deployment gate: the repository and commit it guards, and the installation asking. */
export interface GateScope {
  /** `owner/repo`, as GitHub names it (compared case-insensitively). */
  repository: string;
  sha: string;
  /** The installation's tenant: the tenant the App's own receipts of the repository are in. */
  tenant: string;
  installationId: number;
}

/**
 * Does the receipt count for the gate? Only when it proves a run of the gate's repository at the
 * gate's commit: by an OIDC token of that repository (whichever tenant holds the receipt: only a
 * run of the repository can hold such a token), or by this very installation's webhook.
 */
export function countsForGate(record: ReceiptRecord, gate: GateScope): boolean {
  const proof = ciProofOf(record.receipt);
  if (!proof || proof.repository !== gate.repository.toLowerCase()) return false;
  if (proof.headSha !== gate.sha) return false;
  if (proof.source === 'oidc') return true;
  return proof.installationId === gate.installationId && record.tenant === gate.tenant;
}

import { canonicalJson } from '../canonical.js';
import { signStatement, type Signer } from '../signer.js';

/**
 * The signed record of a deployment gate's decision: what was decided, under which policy (the
 * hash of its canonical JSON), relying on which receipts. Signed like a status statement: the
 * service key's Ed25519 signature over the RFC 8785 canonical statement.
 */
export const DEPLOYMENT_DECISION_TYPE = 'verification-receipt-deployment-decision/v1';

export interface DeploymentDecisionStatement {
  type: typeof DEPLOYMENT_DECISION_TYPE;
  gateId: string;
  repository: string;
  environment: string;
  sha: string;
  state: 'approved' | 'rejected';
  reason: string;
  /** `sha256:<hex>` of the environment's policy in canonical JSON; absent if unreadable. */
  policyHash?: string;
  receipts: { receiptId: string; receiptHash: string }[];
  requestedAt: string;
  decidedAt: string;
}

export interface SignedDeploymentDecision {
  statement: DeploymentDecisionStatement;
  canonicalStatement: string;
  signature: { alg: 'EdDSA'; kid: string; signature: string } | null;
}

/** Signed with the service key; unsigned (signature null) when signing is disabled. */
export function signDeploymentDecision(
  statement: DeploymentDecisionStatement,
  signer: Signer | undefined,
): SignedDeploymentDecision {
  if (!signer) return { statement, canonicalStatement: canonicalJson(statement), signature: null };
  return { statement, ...signStatement(statement, signer) };
}

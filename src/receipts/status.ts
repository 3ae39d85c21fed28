import type { Decision, ExternalReceiptStatus } from '../contract/common.js';

/** docs/decisions/0014-status-mapping.md: ALLOW -> clean, FLAG -> compliance_gap, BLOCK -> failure. */
export function statusOf(decision: Decision, revoked: boolean): ExternalReceiptStatus {
  if (revoked) return 'revoked';
  switch (decision) {
    case 'ALLOW':
      return 'clean';
    case 'FLAG':
      return 'compliance_gap';
    case 'BLOCK':
      return 'failure';
  }
}

export type CheckRunConclusion = 'success' | 'failure' | 'neutral';

/** Adapter conclusion: clean -> success, compliance_gap -> neutral, failure/revoked -> failure. */
export function conclusionOf(status: ExternalReceiptStatus): CheckRunConclusion {
  switch (status) {
    case 'clean':
      return 'success';
    case 'compliance_gap':
      return 'neutral';
    case 'failure':
    case 'revoked':
      return 'failure';
  }
}

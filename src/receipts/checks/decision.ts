import type { Decision } from '../../contract/common.js';
import type { CheckOutcome } from '../types.js';

type CheckStatus = CheckOutcome['status'];

/**
 * docs/decisions/0014-status-mapping.md, in order: any FAIL -> BLOCK; else any WARN -> FLAG; else
 * ALLOW. `decide` applies these rules and the published policy profiles (GET /policies) show them.
 */
export const DECISION_RULES: readonly Readonly<{ decision: Decision; anyCheck: CheckStatus }>[] =
  Object.freeze([
    Object.freeze({ decision: 'BLOCK', anyCheck: 'FAIL' }),
    Object.freeze({ decision: 'FLAG', anyCheck: 'WARN' }),
  ]);

/** The decision when no rule of DECISION_RULES applies. */
export const DECISION_OTHERWISE: Decision = 'ALLOW';

export function decide(outcomes: readonly CheckOutcome[]): Decision {
  const rule = DECISION_RULES.find(({ anyCheck }) =>
    outcomes.some((outcome) => outcome.status === anyCheck),
  );
  return rule?.decision ?? DECISION_OTHERWISE;
}

/**
 * The receipt's `reasons`: the label of every FAIL or WARN outcome, in check order, each label
 * once (two checks can report the same cause, e.g. `notary_not_registered`). An outcome built
 * without a label contributes `<checkId with _ for .>_<fail|warn>` so it is never silently lost.
 */
export function reasonsOf(outcomes: readonly CheckOutcome[]): string[] {
  const labels = outcomes
    .filter((outcome) => outcome.status !== 'PASS')
    .map(
      (outcome) =>
        outcome.reason ?? `${outcome.checkId.replaceAll('.', '_')}_${outcome.status.toLowerCase()}`,
    );
  return [...new Set(labels)];
}

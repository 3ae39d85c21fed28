import type { Decision } from '../../contract/common.js';
import type { CheckOutcome } from '../types.js';

/** docs/decisions.md "Status mapping": any FAIL -> BLOCK; else any WARN -> FLAG; else ALLOW. */
export function decide(outcomes: readonly CheckOutcome[]): Decision {
  if (outcomes.some((outcome) => outcome.status === 'FAIL')) return 'BLOCK';
  return outcomes.some((outcome) => outcome.status === 'WARN') ? 'FLAG' : 'ALLOW';
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

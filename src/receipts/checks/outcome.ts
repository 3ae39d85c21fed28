import type { CheckOutcome } from '../types.js';
import type { CheckId, ReasonFor } from './catalogue.js';

/** Constructors for check outcomes; a check can only emit the reason labels catalogued for it. */

export type CheckStatus = CheckOutcome['status'];

const MAX_QUOTED_LENGTH = 120;

export function pass(checkId: CheckId, details: string): CheckOutcome {
  return { checkId, status: 'PASS', details };
}

export function fail<C extends CheckId>(
  checkId: C,
  reason: ReasonFor<C>,
  details: string,
): CheckOutcome {
  return judged(checkId, 'FAIL', reason, details);
}

export function warn<C extends CheckId>(
  checkId: C,
  reason: ReasonFor<C>,
  details: string,
): CheckOutcome {
  return judged(checkId, 'WARN', reason, details);
}

/** An outcome whose status a policy knob chose; the reason is dropped when that status is PASS. */
export function judged<C extends CheckId>(
  checkId: C,
  status: CheckStatus,
  reason: ReasonFor<C>,
  details: string,
): CheckOutcome {
  return status === 'PASS' ? pass(checkId, details) : { checkId, status, details, reason };
}

/**
 * A caller-supplied value as it appears in details: JSON-quoted (so separators inside it cannot be
 * mistaken for the sentence around it) and shortened past MAX_QUOTED_LENGTH characters.
 */
export function quote(value: string): string {
  const chars = Array.from(value);
  const shown =
    chars.length > MAX_QUOTED_LENGTH ? `${chars.slice(0, MAX_QUOTED_LENGTH).join('')}…` : value;
  return JSON.stringify(shown);
}

import type { CheckOutcome } from '../types.js';
import type { ReasonFor } from './catalogue.js';
import type { RonCheckContext } from './context.js';
import { fail, pass, quote } from './outcome.js';

const CHECK_ID = 'ron.commission';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `ron.commission`: the registered notary's commission must be for the state the request names
 * (`ron.commissionState`) and must not have expired at `now`. `commissionExpires` is the last
 * valid day, inclusive, compared as a UTC calendar date. When both fail, the reason is
 * `commission_state_mismatch` and the details name both problems.
 */
export function checkCommission(ctx: RonCheckContext): CheckOutcome {
  const { ron } = ctx.request;
  const notary = ctx.notary;
  if (notary === undefined) {
    return fail(
      CHECK_ID,
      'notary_not_registered',
      `notary ${quote(ron.notaryId)} is not registered for this tenant; commission unknown`,
    );
  }
  const expires = notary.commissionExpires;
  if (!isCalendarDate(expires)) {
    return fail(
      CHECK_ID,
      'commission_record_invalid',
      `registry commission expiry ${quote(expires)} is not a YYYY-MM-DD date`,
    );
  }
  const registered = `registered commission ${notary.commissionState} valid through ${expires}`;
  const today = ctx.now.toISOString().slice(0, 10);
  const problems: Array<[ReasonFor<typeof CHECK_ID>, string]> = [];
  if (notary.commissionState !== ron.commissionState) {
    problems.push(['commission_state_mismatch', `request states ${quote(ron.commissionState)}`]);
  }
  if (today > expires) problems.push(['commission_expired', `expired as of ${today} (UTC)`]);
  const first = problems[0];
  if (first !== undefined) {
    const found = problems.map(([, text]) => text).join('; ');
    return fail(CHECK_ID, first[0], `${registered}; ${found}`);
  }
  return pass(CHECK_ID, `${registered} matches the request and is current on ${today} (UTC)`);
}

/** YYYY-MM-DD naming a real day (rejects 2025-02-30). */
function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

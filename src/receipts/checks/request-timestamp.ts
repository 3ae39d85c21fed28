import type { CheckOutcome } from '../types.js';
import { ALLOWED_CLOCK_SKEW_MS } from './clock.js';
import type { RonCheckContext } from './context.js';
import { fail, pass, quote, warn } from './outcome.js';

const CHECK_ID = 'request.timestamp';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A caller event older than this is stale: the evidence may have changed since. */
export const STALE_TIMESTAMP_DAYS = 30;

/**
 * `request.timestamp`: the caller's event time (`timestamp`) may not lie more than 5 minutes
 * after the service clock (FAIL `timestamp_in_future`) and should not be more than 30 days old
 * (WARN `timestamp_stale`). No timestamp is a PASS: the field is optional.
 */
export function checkRequestTimestamp(ctx: RonCheckContext): CheckOutcome {
  const { timestamp } = ctx.request;
  if (timestamp === undefined) return pass(CHECK_ID, 'no caller timestamp supplied');
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) {
    return fail(CHECK_ID, 'timestamp_invalid', `timestamp ${quote(timestamp)} is not a date-time`);
  }
  const now = ctx.now.getTime();
  const compared = `caller timestamp ${quote(timestamp)}, service time ${ctx.now.toISOString()}`;
  if (at > now + ALLOWED_CLOCK_SKEW_MS) {
    return fail(
      CHECK_ID,
      'timestamp_in_future',
      `${compared}: more than ${ALLOWED_CLOCK_SKEW_MS / 60_000} minutes ahead`,
    );
  }
  if (at < now - STALE_TIMESTAMP_DAYS * DAY_MS) {
    return warn(
      CHECK_ID,
      'timestamp_stale',
      `${compared}: more than ${STALE_TIMESTAMP_DAYS} days old`,
    );
  }
  return pass(CHECK_ID, `${compared}: within bounds`);
}

import { usJurisdiction } from '../us-states.js';
import type { CheckOutcome } from '../types.js';
import type { RonCheckContext } from './context.js';
import { fail, judged, pass, quote } from './outcome.js';

const CHECK_ID = 'property.jurisdiction';

/**
 * `property.jurisdiction`: `property.state` and `ron.commissionState` must be USPS codes of a
 * state, DC or an inhabited territory (upper case). A notary commissioned in another state than
 * the property's is normal for RON, which states broadly recognise across state lines (acceptance
 * for recording is the county recorder's call); the profile decides whether that is a PASS or a
 * WARN `interstate_notarization`.
 */
export function checkPropertyJurisdiction(ctx: RonCheckContext): CheckOutcome {
  const { property, ron } = ctx.request;
  const fields: Array<[string, string]> = [
    ['property.state', property.state],
    ['ron.commissionState', ron.commissionState],
  ];
  const unknown = fields.filter(([, code]) => usJurisdiction(code) === undefined);
  if (unknown.length > 0) {
    const list = unknown.map(([field, code]) => `${field} ${quote(code)}`).join(' and ');
    return fail(
      CHECK_ID,
      'unknown_state_code',
      `${list} ${unknown.length > 1 ? 'are' : 'is'} not a USPS code of a US state, DC or territory (upper case)`,
    );
  }
  const propertyIn = `property in ${describe(property.state)}, county ${quote(property.county)}`;
  if (ron.commissionState === property.state) {
    return pass(CHECK_ID, `${propertyIn}; notary commissioned in the same jurisdiction`);
  }
  return judged(
    CHECK_ID,
    ctx.profile.interstateNotarization,
    'interstate_notarization',
    `${propertyIn}; notary commissioned in ${describe(ron.commissionState)} (remote notarisation ` +
      'across state lines)',
  );
}

function describe(code: string): string {
  return `${usJurisdiction(code)?.name ?? code} (${code})`;
}

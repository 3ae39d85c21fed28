/**
 * USPS two-letter codes of the jurisdictions that commission notaries: the 50 states, the
 * District of Columbia and the five inhabited territories (USPS Publication 28, Appendix B).
 *
 * Deliberately absent: the freely associated states (FM, MH, PW), the military "states"
 * (AA, AE, AP) and UM (an ISO 3166-2 code with no USPS code and no notary commissions).
 * Codes are upper case exactly as USPS publishes them; lookups are case-sensitive.
 */

export type JurisdictionKind = 'state' | 'district' | 'territory';

export interface UsJurisdiction {
  code: string;
  name: string;
  kind: JurisdictionKind;
}

const states: ReadonlyArray<[string, string]> = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

const territories: ReadonlyArray<[string, string]> = [
  ['AS', 'American Samoa'],
  ['GU', 'Guam'],
  ['MP', 'Northern Mariana Islands'],
  ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
];

/** Every jurisdiction, states first (alphabetical by name), then DC, then territories. */
export const US_JURISDICTIONS: readonly UsJurisdiction[] = Object.freeze([
  ...states.map(([code, name]) => ({ code, name, kind: 'state' as const })),
  { code: 'DC', name: 'District of Columbia', kind: 'district' as const },
  ...territories.map(([code, name]) => ({ code, name, kind: 'territory' as const })),
]);

const byCode: ReadonlyMap<string, UsJurisdiction> = new Map(
  US_JURISDICTIONS.map((j) => [j.code, j]),
);

/** True when `code` is one of the USPS codes above (case-sensitive). */
export function isUsJurisdictionCode(code: string): boolean {
  return byCode.has(code);
}

/** The jurisdiction for a USPS code, or undefined when the code is not in the list. */
export function usJurisdiction(code: string): UsJurisdiction | undefined {
  return byCode.get(code);
}

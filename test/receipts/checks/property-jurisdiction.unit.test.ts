import { describe, expect, it } from 'vitest';
import { checkPropertyJurisdiction } from '../../../src/receipts/checks/property-jurisdiction.js';
import {
  isUsJurisdictionCode,
  US_JURISDICTIONS,
  usJurisdiction,
} from '../../../src/receipts/us-states.js';
import { context, profile, request } from './helpers.js';

describe('US jurisdictions', () => {
  it('lists the 50 states, DC and the five inhabited territories, each code once', () => {
    const count = (kind: string) => US_JURISDICTIONS.filter((j) => j.kind === kind).length;
    expect([count('state'), count('district'), count('territory')]).toEqual([50, 1, 5]);
    expect(new Set(US_JURISDICTIONS.map((j) => j.code)).size).toBe(56);
    expect(US_JURISDICTIONS.every((j) => /^[A-Z]{2}$/.test(j.code))).toBe(true);
  });

  it('knows real codes and rejects others, case-sensitively', () => {
    expect(usJurisdiction('PR')).toEqual({ code: 'PR', name: 'Puerto Rico', kind: 'territory' });
    expect(usJurisdiction('DC')?.kind).toBe('district');
    for (const code of ['tx', 'XX', 'UM', 'AA', 'FM', 'T'])
      expect(isUsJurisdictionCode(code)).toBe(false);
  });
});

describe('property.jurisdiction', () => {
  it('passes when both codes are real and equal', async () => {
    const outcome = checkPropertyJurisdiction(await context());
    expect(outcome).toMatchObject({ checkId: 'property.jurisdiction', status: 'PASS' });
    expect(outcome.details).toContain('Texas (TX)');
  });

  it.each([
    ['property.state', (r: { property: { state: string } }) => (r.property.state = 'ZZ')],
    [
      'ron.commissionState',
      (r: { ron: { commissionState: string } }) => (r.ron.commissionState = 'tx'),
    ],
  ])('fails unknown_state_code for a bad %s', async (field, change) => {
    const outcome = checkPropertyJurisdiction(await context({ request: request(change) }));
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'unknown_state_code' });
    expect(outcome.details).toContain(field);
  });

  it('passes interstate remote notarisation under the standard profile, saying so', async () => {
    const fl = request((r) => {
      r.property.state = 'FL';
    });
    const outcome = checkPropertyJurisdiction(await context({ request: fl }));
    expect(outcome.status).toBe('PASS');
    expect(outcome.details).toContain('across state lines');
  });

  it('warns interstate_notarization under the strict profile', async () => {
    const fl = request((r) => {
      r.property.state = 'FL';
    });
    const strict = await context({ request: fl, profile: profile('ron-strict-v1') });
    expect(checkPropertyJurisdiction(strict)).toMatchObject({
      status: 'WARN',
      reason: 'interstate_notarization',
    });
  });
});

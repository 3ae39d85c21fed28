import { describe, expect, it } from 'vitest';
import { checkCommission } from '../../../src/receipts/checks/ron-commission.js';
import { context, NOTARY, request } from './helpers.js';

describe('ron.commission', () => {
  it('passes a current commission for the stated state', async () => {
    const outcome = checkCommission(await context());
    expect(outcome).toMatchObject({ checkId: 'ron.commission', status: 'PASS' });
    expect(outcome.details).toContain('TX valid through 2027-03-31');
  });

  it('fails notary_not_registered without a registry record', async () => {
    expect(checkCommission(await context({ notary: undefined }))).toMatchObject({
      status: 'FAIL',
      reason: 'notary_not_registered',
    });
  });

  it('fails commission_state_mismatch when the request names another state', async () => {
    const fl = request((r) => {
      r.ron.commissionState = 'FL';
    });
    const outcome = checkCommission(await context({ request: fl }));
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'commission_state_mismatch' });
    expect(outcome.details).toContain('"FL"');
  });

  it('treats the expiry day as valid through its end (UTC) and fails commission_expired after', async () => {
    const notary = { ...NOTARY, commissionExpires: '2025-06-15' };
    const lastDay = await context({ notary, now: new Date('2025-06-15T23:59:59Z') });
    expect(checkCommission(lastDay).status).toBe('PASS');
    const dayAfter = await context({ notary, now: new Date('2025-06-16T00:00:00Z') });
    expect(checkCommission(dayAfter)).toMatchObject({
      status: 'FAIL',
      reason: 'commission_expired',
    });
  });

  it('names both problems when the state differs and the commission expired', async () => {
    const notary = { ...NOTARY, commissionExpires: '2020-01-01' };
    const fl = request((r) => {
      r.ron.commissionState = 'FL';
    });
    const outcome = checkCommission(await context({ notary, request: fl }));
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'commission_state_mismatch' });
    expect(outcome.details).toContain('expired as of');
  });

  it.each(['2025-02-30', '31/12/2027', ''])(
    'fails commission_record_invalid for a registry expiry of %j',
    async (commissionExpires) => {
      const outcome = checkCommission(await context({ notary: { ...NOTARY, commissionExpires } }));
      expect(outcome).toMatchObject({ status: 'FAIL', reason: 'commission_record_invalid' });
    },
  );
});

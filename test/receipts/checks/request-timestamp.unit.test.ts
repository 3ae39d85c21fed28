import { describe, expect, it } from 'vitest';
import { checkRequestTimestamp } from '../../../src/receipts/checks/request-timestamp.js';
import { context, request } from './helpers.js';

const at = (timestamp: string | undefined) =>
  context({
    request: request((r) => {
      r.timestamp = timestamp;
    }),
  });

describe('request.timestamp', () => {
  it('passes without a timestamp', async () => {
    expect(checkRequestTimestamp(await at(undefined))).toMatchObject({
      checkId: 'request.timestamp',
      status: 'PASS',
      details: 'no caller timestamp supplied',
    });
  });

  it.each([
    '2025-06-15T11:00:00Z',
    '2025-06-15T12:04:59Z',
    '2025-05-17T12:00:00Z',
    '2025-06-15T14:00:00+02:00',
  ])('passes %s (NOW is 2025-06-15T12:00:00Z)', async (timestamp) => {
    expect(checkRequestTimestamp(await at(timestamp)).status).toBe('PASS');
  });

  it('fails timestamp_in_future more than 5 minutes ahead, whatever the offset', async () => {
    for (const timestamp of ['2025-06-15T12:05:01Z', '2025-06-15T08:06:00-04:00']) {
      expect(checkRequestTimestamp(await at(timestamp))).toMatchObject({
        status: 'FAIL',
        reason: 'timestamp_in_future',
      });
    }
  });

  it('warns timestamp_stale more than 30 days old', async () => {
    expect(checkRequestTimestamp(await at('2025-05-16T11:59:59Z'))).toMatchObject({
      status: 'WARN',
      reason: 'timestamp_stale',
    });
  });

  it('fails timestamp_invalid for a value that is not a date (unvalidated input)', async () => {
    expect(checkRequestTimestamp(await at('yesterday'))).toMatchObject({
      status: 'FAIL',
      reason: 'timestamp_invalid',
    });
  });
});

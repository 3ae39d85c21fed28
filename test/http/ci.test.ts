import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiVerificationRequest } from '../../src/contract/ci.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { ciRequest } from './hostile/requests.js';

let ctx: TestContext;
let key: string;

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read']);
});
afterAll(async () => ctx.close());

const post = (payload: CiVerificationRequest) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': key },
    payload,
  });

const count = async () => Number((await ctx.db.knex('receipts').count({ n: '*' }).first())?.n ?? 0);

describe('POST /verifications/ci: externalId is an idempotency key', () => {
  it('an identical repeat returns the receipt already issued', async () => {
    const request = ciRequest();
    const first = await post(request);
    const again = await post({ ...request });
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });

  it('the same externalId with different content is a 400 naming the conflict', async () => {
    const request = ciRequest();
    const first = await post(request);
    const before = await count();
    const other = await post({ ...request, headSha: 'b'.repeat(40) });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({
      error: 'validation_failed',
      message: expect.stringContaining('externalId'),
      details: { externalId: request.externalId, receiptId: first.json().receiptId },
    });
    expect(await count()).toBe(before);
  });

  it('concurrent identical requests issue one receipt', async () => {
    const request = ciRequest();
    const before = await count();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(request)));
    expect(new Set(answers.map((a) => a.json().receiptId)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });
});

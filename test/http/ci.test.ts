import { describe, expect } from 'vitest';
import type { CiVerificationRequest } from '../../src/contract/ci.js';
import type { TestContext } from '../helpers/context.js';
import { it } from '../helpers/fixtures.js';
import { ciRequest } from './hostile/requests.js';

const post = ({ ctx, key }: { ctx: TestContext; key: string }, payload: CiVerificationRequest) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': key },
    payload,
  });

const count = async (ctx: TestContext) =>
  Number((await ctx.db.knex('receipts').count({ n: '*' }).first())?.n ?? 0);

describe('POST /verifications/ci: externalId is an idempotency key', () => {
  it('an identical repeat returns the receipt already issued', async ({ ctx, key }) => {
    const request = ciRequest();
    const first = await post({ ctx, key }, request);
    const again = await post({ ctx, key }, { ...request });
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });

  it('the same externalId with different content is a 400 naming the conflict', async ({
    ctx,
    key,
  }) => {
    const request = ciRequest();
    const first = await post({ ctx, key }, request);
    const before = await count(ctx);
    const other = await post({ ctx, key }, { ...request, headSha: 'b'.repeat(40) });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({
      error: 'validation_failed',
      message: expect.stringContaining('externalId'),
      details: { externalId: request.externalId, receiptId: first.json().receiptId },
    });
    expect(await count(ctx)).toBe(before);
  });

  it('concurrent identical requests issue one receipt', async ({ ctx, key }) => {
    const request = ciRequest();
    const before = await count(ctx);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post({ ctx, key }, request)));
    expect(new Set(answers.map((a) => a.json().receiptId)).size).toBe(1);
    expect(await count(ctx)).toBe(before + 1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

/**
 * POST /api/v1/repository-policy/check: the App's own reading of a `.github/receipts.yml`, for a
 * workflow with a key and no clone. A valid file lists what each gate accepts; an invalid one,
 * each problem with its path; either way 200, since the check ran.
 */

const URL_ = '/api/v1/repository-policy/check';
let ctx: TestContext;
let verifyKey: string;
let readKey: string;

beforeAll(async () => {
  ctx = await createTestContext();
  verifyKey = await ctx.apiKey(['verify']);
  readKey = await ctx.apiKey(['read']);
});
afterAll(async () => ctx.close());

const check = (text: unknown, key = verifyKey) =>
  ctx.app.inject({ method: 'POST', url: URL_, headers: { 'x-api-key': key }, payload: { text } });

describe('POST /api/v1/repository-policy/check', () => {
  it('a valid file: what each gated environment accepts', async () => {
    const res = await check('deployments:\n  production:\n    identity: proven\n    wait: 30m\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: true,
      problems: [],
      notes: [],
      environments: [expect.stringMatching(/^production: an ALLOW receipt .* waits 30m/)],
    });
  });

  it('an invalid file: every problem with its path, nothing else', async () => {
    const res = await check(
      'deployments:\n  production:\n    identity: sometimes\n    maxAge: 2 hours\n',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: false,
      problems: [
        expect.stringMatching(/^`deployments\.production\.identity`: /),
        expect.stringMatching(/^`deployments\.production\.maxAge`: /),
      ],
      notes: [],
      environments: [],
    });
  });

  it('YAML it cannot read says where', async () => {
    const res = await check('deployments: [\n');
    expect(res.json()).toMatchObject({
      valid: false,
      problems: [expect.stringMatching(/^not valid YAML \(line \d+, column \d+\)/)],
    });
  });

  it('needs a key with the verify scope', async () => {
    const anonymous = await ctx.app.inject({ method: 'POST', url: URL_, payload: { text: '' } });
    expect(anonymous.statusCode).toBe(401);
    const read = await check('', readKey);
    expect(read.statusCode).toBe(403);
    expect(read.json()).toMatchObject({ error: 'forbidden' });
  });

  it('a file over 64 KiB, or no text, is a 400 ErrorResponse', async () => {
    const big = await check(`# ${'x'.repeat(64 * 1024)}\n`);
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ error: 'validation_failed' });
    const missing = await check(undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'validation_failed' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../scripts/build-verify-page.mjs';
import { createTestContext, type TestContext } from '../helpers/context.js';

/**
 * The served /verify page names the command that checks the same file anywhere: the scoped
 * verifier package pinned to this service's public URL, escaped as HTML.
 */
const PUBLIC_URL = 'https://receipts.example.com/a?b=1&c=<2>';
let ctx: TestContext;

beforeAll(async () => {
  await buildVerifyPage();
  ctx = await createTestContext({ PUBLIC_URL });
});
afterAll(async () => ctx.close());

describe('GET /verify', () => {
  it('prints the verifier command pinned to the public URL', async () => {
    const res = await ctx.app.inject({ url: '/verify' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      '<code>npx @verification-receipts/verify FILE --online ' +
        'https://receipts.example.com/a?b=1&#38;c=&#60;2&#62;</code>',
    );
    expect(res.body).not.toContain('__VERIFY_COMMAND__');
  });
});

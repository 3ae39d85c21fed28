import type { TestContext } from '../helpers/context.js';
import { issueValidRon } from '../helpers/ron.js';
import { fromBase64url } from '@verification-receipts/verify/log';

/** Issues a RON receipt with a document (so it is anchorable), seals the log, returns the bundle. */
export async function anchoredBundle(
  ctx: TestContext,
  key: string,
): Promise<Record<string, unknown>> {
  const issued = await issueValidRon(ctx, key);
  if (issued.statusCode !== 200) throw new Error(issued.body);
  await ctx.app.services.anchoring.sealAll();
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${issued.json().receiptId}/bundle`,
    headers: { 'x-api-key': key },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

/** The service's published keys, raw, as a verifier pins them from the JWKS. */
export async function jwksKeys(ctx: TestContext): Promise<Uint8Array[]> {
  const { keys } = (await ctx.app.inject({ url: '/.well-known/jwks.json' })).json() as {
    keys: { x: string }[];
  };
  return keys.map((k) => fromBase64url(k.x) as Uint8Array);
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { ciRequest } from './hostile/requests.js';

/** GET /receipts filters: each narrows the list, they combine, odd values are ignored (no 400). */

let ctx: TestContext;
let key: string;
let notary: Notary;
const issuerPem = ed25519Pem();
const ids: Record<string, string> = {};

async function ron(
  bundleId: string,
  change: (b: ReturnType<typeof validRequest>) => void = () => undefined,
) {
  const body = validRequest(notary);
  body.bundleId = bundleId;
  change(body);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().receiptId as string, docHash: body.doc.docHash as string };
}

const list = async (query: string) => {
  const res = await ctx.app.inject({
    url: `/api/v1/receipts?${query}`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(200);
  return { ids: (res.json() as { receiptId: string }[]).map((r) => r.receiptId), res };
};

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  notary = await registerNotary(ctx.repos);
  await registerIssuer(ctx.repos, issuerPem);
  const a = await ron('bundle-a');
  ids.allow = a.id;
  ids.docHash = a.docHash;
  ids.block = (await ron('bundle-b', (b) => (b.ron.notaryId = 'nobody'))).id;
  ids.revoked = (await ron('bundle-a')).id;
  await revokeVia(ctx.app, key, ids.revoked, issuerPem);
  const ci = ciRequest();
  ids.externalId = ci.externalId;
  ids.ci = (await ctx.app.services.receipts.issueCi('tenant-a', ci)).record.id;
});
afterAll(async () => ctx.close());

describe('GET /receipts filters', () => {
  it('narrows by decision, status, bundleId, docHash and externalId', async () => {
    expect((await list('decision=BLOCK')).ids).toEqual([ids.block]);
    expect((await list('status=failure')).ids).toEqual([ids.block]);
    expect((await list('status=revoked')).ids).toEqual([ids.revoked]);
    expect((await list('status=clean')).ids).toEqual([ids.allow]);
    expect((await list('status=compliance_gap')).ids).toEqual([ids.ci]);
    expect((await list('bundleId=bundle-a')).ids.sort()).toEqual([ids.allow, ids.revoked].sort());
    expect((await list('bundleId=bundle-a&status=clean')).ids).toEqual([ids.allow]);
    const hex = (ids.docHash ?? '').replace(/^sha256:/, '');
    expect((await list(`docHash=${hex}`)).ids).toContain(ids.allow);
    expect((await list(`docHash=sha256:${hex}`)).ids).toContain(ids.allow);
    expect((await list(`externalId=${encodeURIComponent(ids.externalId ?? '')}`)).ids).toEqual([
      ids.ci,
    ]);
  });

  it('narrows by creation time', async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(`createdAfter=${future}`)).ids).toEqual([]);
    expect((await list(`createdBefore=${future}`)).ids).toHaveLength(4);
  });

  it('ignores values that cannot match, never a 400', async () => {
    for (const q of [
      'status=nope',
      'decision=allow',
      'docHash=xyz',
      'createdAfter=yesterday',
      `bundleId=${'x'.repeat(300)}`,
    ]) {
      expect((await list(q)).ids, q).toHaveLength(4);
    }
  });

  it('keeps the filters in the next-page link', async () => {
    const { res, ids: first } = await list('limit=1&bundleId=bundle-a');
    expect(first).toHaveLength(1);
    const link = String(res.headers.link);
    expect(link).toContain('bundleId=bundle-a');
    const next = /<([^>]+)>/.exec(link)?.[1] ?? '';
    const page2 = await ctx.app.inject({ url: next, headers: { 'x-api-key': key } });
    const second = (page2.json() as { receiptId: string }[]).map((r) => r.receiptId);
    expect([...first, ...second].sort()).toEqual([ids.allow, ids.revoked].sort());
  });
});

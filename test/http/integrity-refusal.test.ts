import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { minimalRequest, samplePdf } from '../helpers/requests.js';

/**
 * Nothing is signed or published about a stored receipt that later verification would reject:
 * a row edited behind the service's back (SQL, a restored backup) gets a 503, never a fresh
 * signature over the edited content, and the refusal is counted.
 */
let ctx: TestContext;
let key: string;

beforeAll(async () => {
  ctx = await createTestContext({ METRICS_TOKEN: 'scrape-secret' });
  key = await ctx.apiKey(['verify', 'read']);
});
afterAll(async () => ctx.close());

async function issue(): Promise<{ id: string; hash: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: minimalRequest({
      doc: {
        docHash: minimalRequest().doc.docHash,
        pdfBase64: samplePdf().toString('base64'),
      },
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().decision).not.toBe('ALLOW');
  return { id: res.json().receiptId, hash: res.json().receiptHash };
}

/** The edit of a reviewer with SQL access: a refused receipt turned into an ALLOW. */
async function tamper(id: string): Promise<void> {
  await ctx.db.knex.raw(
    `update receipts set body = jsonb_set(jsonb_set(body, '{decision}', '"ALLOW"'), '{status}', '"clean"') where id = ?`,
    [id],
  );
}

const paths = (id: string, hash: string) => ({
  attestation: `/api/v1/receipt/${id}/attestation`,
  bundle: `/api/v1/receipt/${id}/bundle`,
  pdf: `/api/v1/receipt/${id}/pdf`,
  status: `/status/${hash}`,
});

async function integrityFailures(): Promise<Record<string, number>> {
  const res = await ctx.app.inject({
    url: '/metrics',
    headers: { authorization: 'Bearer scrape-secret' },
  });
  const counts: Record<string, number> = {};
  for (const m of res.body.matchAll(/^receipt_integrity_failures_total\{use="(\w+)"\} (\d+)$/gm)) {
    counts[m[1] as string] = Number(m[2]);
  }
  return counts;
}

describe('a stored receipt that no longer verifies is vouched for nowhere', () => {
  it('an intact receipt is served on every path', async () => {
    const { id, hash } = await issue();
    for (const [use, url] of Object.entries(paths(id, hash))) {
      const res = await ctx.app.inject({ url, headers: { 'x-api-key': key } });
      expect(res.statusCode, `${use}: ${res.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('later verification of an edited body fails', async () => {
    const { id } = await issue();
    await tamper(id);
    const verify = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/receipt/${id}/verify`,
      headers: { 'x-api-key': key },
    });
    expect(verify.json()).toMatchObject({ integrityVerified: false });
  });

  for (const use of ['attestation', 'bundle', 'pdf', 'status'] as const) {
    it(`an edited body: ${use} answers 503 dependency_unavailable, counted`, async () => {
      const { id, hash } = await issue();
      await tamper(id);
      const before = (await integrityFailures())[use] ?? 0;
      const res = await ctx.app.inject({
        url: paths(id, hash)[use],
        headers: { 'x-api-key': key },
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(503);
      expect(res.json()).toMatchObject({ error: 'dependency_unavailable' });
      expect((await integrityFailures())[use]).toBe(before + 1);
    });
  }

  it('a stripped signature is refused while the service signs receipts', async () => {
    const { id, hash } = await issue();
    await ctx.db.knex('receipts').where({ id }).update({ signature: null, signature_kid: null });
    const res = await ctx.app.inject({
      url: paths(id, hash).attestation,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode, res.body).toBe(503);
  });
});

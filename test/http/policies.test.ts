import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CI_PROFILES } from '../../src/receipts/ci-profiles.js';
import { POLICY_PROFILES } from '../../src/receipts/policy.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { ciRequest } from './hostile/requests.js';

/**
 * GET /policies and /policies/{profile}: the policy profiles, public. A receipt's attestation
 * names its profile's URL as the VSA's policy.uri; following it answers that profile, with the
 * checks the receipt carries.
 */

const PUBLIC_URL = 'https://receipts.example.test';
let ctx: TestContext;
let key: string;
let notary: Notary;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL });
  key = await ctx.apiKey(['verify', 'read']);
  notary = await registerNotary(ctx.repos, 'tenant-a');
});
afterAll(async () => ctx.close());

async function issueRon(profile: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: { ...validRequest(notary), policy: { profile } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().receiptId as string;
}

async function issueCi(profile: string): Promise<string> {
  const { record } = await ctx.app.services.receipts.issueCi('tenant-a', ciRequest(), { profile });
  return record.id;
}

/** The receipt, and its attestation's policy.uri followed without a key. */
async function followPolicyUri(receiptId: string) {
  const { receipt } = (
    await ctx.app.inject({ url: `/api/v1/receipt/${receiptId}`, headers: { 'x-api-key': key } })
  ).json();
  const bundle = (
    await ctx.app.inject({
      url: `/api/v1/receipt/${receiptId}/attestation`,
      headers: { 'x-api-key': key },
    })
  ).json();
  const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString());
  const uri: string = statement.predicate.policy.uri;
  expect(uri.startsWith(`${PUBLIC_URL}/`), uri).toBe(true);
  const policy = await ctx.app.inject({ url: uri.slice(PUBLIC_URL.length) });
  return { receipt, policy };
}

describe("a VSA's policy.uri", () => {
  it.each([
    ['ron', 'ron-standard-v1'],
    ['ron', 'ron-strict-v1'],
    ['ron', 'ron-basic-v1'],
    ['ci', 'ci-provenance-v1'],
    ['ci', 'ci-provenance-v2'],
  ])('of a %s receipt under %s answers that profile and the checks it ran', async (kind, id) => {
    const receiptId = kind === 'ron' ? await issueRon(id) : await issueCi(id);
    const { receipt, policy } = await followPolicyUri(receiptId);
    expect(policy.statusCode, policy.body).toBe(200);
    expect(policy.headers['content-type']).toMatch(/^application\/json/);
    const body = policy.json();
    expect(body.id).toBe(receipt.policyProfile);
    expect(body.kind).toBe(kind);
    // the profile lists exactly the checks its receipts carry, in their order
    expect(body.checks.map((c: { checkId: string }) => c.checkId)).toEqual(
      receipt.checks.map((c: { checkId: string }) => c.checkId),
    );
  });

  it('of a receipt under a profile the service does not define is a 404 ErrorResponse', async () => {
    const receiptId = await issueRon('ron-unknown-v9');
    const { receipt, policy } = await followPolicyUri(receiptId);
    expect(receipt.decision).toBe('BLOCK');
    expect(policy.statusCode).toBe(404);
    expect(policy.json()).toMatchObject({ error: 'not_found' });
    expect(policy.json().details.known).toContain('ron-standard-v1');
  });
});

describe('GET /policies/{profile}', () => {
  it('is the profile object of the code, with its rules and the decision rules', async () => {
    const res = await ctx.app.inject({ url: '/policies/ron-strict-v1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const strict = POLICY_PROFILES.find((p) => p.id === 'ron-strict-v1');
    expect(res.json()).toMatchObject({
      name: 'ron-strict',
      version: 'v1',
      description: strict?.description,
      rules: {
        opaqueSeal: strict?.opaqueSeal,
        requireDocument: strict?.requireDocument,
        requireScreening: strict?.requireScreening,
        interstateNotarization: strict?.interstateNotarization,
      },
      decision: {
        rules: [
          { decision: 'BLOCK', anyCheck: 'FAIL' },
          { decision: 'FLAG', anyCheck: 'WARN' },
        ],
        otherwise: 'ALLOW',
      },
    });
    const seal = res.json().checks.find((c: { checkId: string }) => c.checkId === 'ron.seal');
    expect(seal.reasons).toContain('seal_invalid');
    const v2 = (await ctx.app.inject({ url: '/policies/ci-provenance-v2' })).json();
    expect(v2.rules).toEqual({ hardened: true });
  });

  it.each(['RON-STANDARD-V1', 'ron-standard-v1%20', 'policy.profile', '..%2Fopenapi.json'])(
    '%s is a 404 (ids match exactly)',
    async (id) => {
      const res = await ctx.app.inject({ url: `/policies/${id}` });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error).toBe('not_found');
    },
  );

  it('a profile id over the length limit is a 400', async () => {
    const res = await ctx.app.inject({ url: `/policies/${'x'.repeat(65)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation_failed');
  });
});

describe('GET /policies', () => {
  it('lists every profile, each as its own URL answers it', async () => {
    const res = await ctx.app.inject({ url: '/policies' });
    expect(res.statusCode).toBe(200);
    const { profiles } = res.json() as { profiles: { id: string }[] };
    expect(profiles.map((p) => p.id)).toEqual([
      ...POLICY_PROFILES.map((p) => p.id),
      ...CI_PROFILES.map((p) => p.id),
    ]);
    for (const profile of profiles) {
      const one = await ctx.app.inject({ url: `/policies/${profile.id}` });
      expect(one.json()).toEqual(profile);
    }
  });
});

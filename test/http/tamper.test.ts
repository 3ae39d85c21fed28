import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigner } from '../../src/receipts/signer.js';
import { canonicalReceipt, sha256Digest } from '../../src/receipts/canonical.js';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import type { StoredReceipt } from '../../src/receipts/types.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { until } from '../helpers/until.js';

/**
 * Stored state edited behind the service's back (a DBA, a restored backup, an attacker with SQL)
 * must not pass later verification: neither edited rows nor an edited key ring.
 */
let ctx: TestContext;
let key: string;
let notary: Notary;
const issuerPem = ed25519Pem();

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  notary = await registerNotary(ctx.repos);
  await ctx.repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'tenant-a',
    publicKey: rawEd25519PublicKey(issuerPem),
  });
});
afterAll(async () => ctx.close());

async function issue(): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().receiptId;
}

async function reverify(id: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${id}/verify`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function revoke(id: string) {
  const h = signRevocation(issuerPem, 'escrow-co', id, new Date().toISOString());
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${id}/revoke`,
    headers: {
      'x-api-key': key,
      'x-issuer-id': h.issuerId,
      'x-signature-timestamp': h.timestamp,
      'x-issuer-signature': h.signature,
    },
  });
}

const row = (id: string) => ctx.db.knex('receipts').where({ id });

describe('tampered receipt rows do not verify', () => {
  it("receipt X's body, hash and signature copied onto row Y", async () => {
    const [x, y] = [await issue(), await issue()];
    const source = await row(x).first();
    await row(y).update({
      body: source.body,
      receipt_hash: source.receipt_hash,
      signature_kid: source.signature_kid,
      signature: source.signature,
    });
    const status = await reverify(y);
    expect(status).toMatchObject({ verified: false, integrityVerified: false });
    // the copied signature is genuine: only the row binding is wrong
    expect(status.signatureStatus).toBe('verified');
    expect((await reverify(x)).verified).toBe(true);
  });

  it('an edited created_at', async () => {
    const id = await issue();
    await row(id).update({ created_at: new Date('2020-01-01T00:00:00Z') });
    expect(await reverify(id)).toMatchObject({ verified: false, integrityVerified: false });
  });

  it('a cleared revoked_at does not un-revoke: the audit row still counts', async () => {
    const id = await issue();
    const revoked = await revoke(id);
    expect(revoked.json()).toMatchObject({ result: 'REVOKED' });
    await row(id).update({ revoked_at: null, revoked_by: null });

    expect(await reverify(id)).toMatchObject({ verified: false, revoked: true });
    const got = await ctx.app.inject({
      url: `/api/v1/receipt/${id}`,
      headers: { 'x-api-key': key },
    });
    expect(got.json()).toMatchObject({ status: 'revoked', revocation: { status: 'REVOKED' } });
    const list = await ctx.app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } });
    const item = list.json().find((i: { receiptId: string }) => i.receiptId === id);
    expect(item).toMatchObject({ revoked: true, status: 'revoked' });
    // revoking again is ALREADY_REVOKED, not a duplicate audit row (a 500)
    const again = await revoke(id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ receiptStatus: 'revoked', result: 'ALREADY_REVOKED' });
  });
});

describe('a key inserted into signing_keys is not trusted (chain of trust)', () => {
  it('a forged, re-signed receipt does not verify and the JWKS does not publish the key', async () => {
    const id = await issue();
    const forger = createSigner(ed25519Pem());
    await ctx.db.knex('signing_keys').insert({ kid: forger.kid, public_jwk: forger.publicJwk });
    // the attacker rewrites the receipt to ALLOW-with-no-checks and re-signs it with their key
    const stored = await row(id).first();
    const body = { ...stored.body, reasons: [], decision: 'ALLOW' } as StoredReceipt;
    const bytes = new TextEncoder().encode(canonicalReceipt(body));
    const signature = Buffer.from(forger.sign(bytes)).toString('base64url');
    await row(id).update({
      body,
      receipt_hash: sha256Digest(bytes),
      signature_kid: forger.kid,
      signature,
    });

    expect(await reverify(id)).toMatchObject({
      verified: false,
      integrityVerified: true,
      signatureStatus: 'unknown-kid',
    });
    const jwks = (await ctx.app.inject({ url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).not.toContain(forger.kid);
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(ctx.app.services.signer?.kid);
  });

  it('a forged endorsement (signed by a key outside the ring) does not help', async () => {
    const forger = createSigner(ed25519Pem());
    const outsider = createSigner(ed25519Pem());
    await ctx.db.knex('signing_keys').insert({ kid: forger.kid, public_jwk: forger.publicJwk });
    const { endorse } = await import('../../src/receipts/key-trust.js');
    const fake = endorse(outsider, forger.publicJwk);
    await ctx.db.knex('signing_key_endorsements').insert({
      subject_kid: fake.subjectKid,
      // claims to come from the service's own key
      endorser_kid: ctx.app.services.signer?.kid,
      signature: fake.signature,
    });
    // the store's key list is cached until the change feed's notice of the insert arrives
    // (LISTEN/NOTIFY on PostgreSQL is asynchronous): once the forged key is seen, it is untrusted
    let trust = await ctx.app.services.keyTrust();
    await until(async () => {
      trust = await ctx.app.services.keyTrust();
      return [...trust.untrusted, ...trust.trusted.map((k) => k.kid)].includes(forger.kid);
    });
    expect(trust.trusted.map((k) => k.kid)).not.toContain(forger.kid);
    expect(trust.untrusted).toContain(forger.kid);
  });
});

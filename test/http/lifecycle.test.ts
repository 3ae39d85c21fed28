import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

let ctx: TestContext;
let key: string;
let keyB: string;
let notary: Notary;
const issuerPem = ed25519Pem();
const otherIssuerPem = ed25519Pem();

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  keyB = await ctx.apiKey(['verify', 'read', 'revoke'], 'tenant-b');
  notary = await registerNotary(ctx.repos);
  await ctx.repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'tenant-a',
    publicKey: rawEd25519PublicKey(issuerPem),
  });
  await ctx.repos.issuers.add({
    issuerId: 'other-co',
    tenant: 'tenant-b',
    publicKey: rawEd25519PublicKey(otherIssuerPem),
  });
});
afterAll(async () => ctx.close());

async function issue(apiKey = key): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': apiKey },
    payload: validRequest(notary),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().receiptId;
}

const reverify = (id: string, apiKey = key) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${id}/verify`,
    headers: { 'x-api-key': apiKey },
  });

function revokeHeaders(id: string, opts: { pem?: string; issuer?: string; at?: Date } = {}) {
  const at = (opts.at ?? new Date()).toISOString();
  const h = signRevocation(opts.pem ?? issuerPem, opts.issuer ?? 'escrow-co', id, at);
  return {
    'x-issuer-id': h.issuerId,
    'x-signature-timestamp': h.timestamp,
    'x-issuer-signature': h.signature,
  };
}

const revoke = (id: string, headers: Record<string, string>, apiKey = key) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${id}/revoke`,
    headers: { 'x-api-key': apiKey, ...headers },
  });

describe('POST /receipt/:id/verify', () => {
  it('verifies an untouched receipt, with exactly the spec fields', async () => {
    const id = await issue();
    const res = await reverify(id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'inputsCommitment',
        'integrityVerified',
        'proofVerified',
        'receiptSignature',
        'recomputedHash',
        'revoked',
        'signatureStatus',
        'signatureVerified',
        'storedHash',
        'verified',
      ].sort(),
    );
    expect(body).toMatchObject({
      verified: true,
      integrityVerified: true,
      signatureVerified: true,
      signatureStatus: 'verified',
      revoked: false,
      proofVerified: false,
    });
    expect(body.recomputedHash).toBe(body.storedHash);
    expect(body.receiptSignature).toEqual({ alg: 'EdDSA', kid: ctx.app.services.signer?.kid });
  });

  const tampers: [
    string,
    (trx: TestContext['db']['knex'], id: string) => Promise<unknown>,
    Record<string, unknown>,
  ][] = [
    [
      'decision in the body',
      (k, id) =>
        k.raw(`update receipts set body = jsonb_set(body, '{decision}', '"BLOCK"') where id = ?`, [
          id,
        ]),
      { integrityVerified: false, signatureStatus: 'invalid' },
    ],
    [
      'a check status',
      (k, id) =>
        k.raw(
          `update receipts set body = jsonb_set(body, '{checks,0,status}', '"FAIL"') where id = ?`,
          [id],
        ),
      { integrityVerified: false, signatureStatus: 'invalid' },
    ],
    [
      'createdAt',
      (k, id) =>
        k.raw(
          `update receipts set body = jsonb_set(body, '{createdAt}', '"2020-01-01T00:00:00.000Z"') where id = ?`,
          [id],
        ),
      { integrityVerified: false, signatureStatus: 'invalid' },
    ],
    [
      'inputsCommitment',
      (k, id) =>
        k.raw(
          `update receipts set body = jsonb_set(body, '{inputsCommitment}', '"sha256:00"') where id = ?`,
          [id],
        ),
      { integrityVerified: false, signatureStatus: 'invalid' },
    ],
    [
      'receipt hash',
      (k, id) =>
        k('receipts')
          .where({ id })
          .update({ receipt_hash: `sha256:${'0'.repeat(64)}` }),
      { integrityVerified: false, signatureStatus: 'verified' },
    ],
    [
      'signature',
      (k, id) =>
        k('receipts')
          .where({ id })
          .update({ signature: Buffer.alloc(64, 7).toString('base64url') }),
      { integrityVerified: true, signatureStatus: 'invalid' },
    ],
    [
      'signature kid',
      (k, id) => k('receipts').where({ id }).update({ signature_kid: 'not-a-known-kid' }),
      { integrityVerified: true, signatureStatus: 'unknown-kid' },
    ],
    [
      'signature removed',
      (k, id) => k('receipts').where({ id }).update({ signature: null, signature_kid: null }),
      { integrityVerified: true, signatureStatus: 'legacy-unsigned' },
    ],
  ];
  it.each(tampers)(
    'a row altered in the database (%s) is not verified',
    async (_name, tamper, flags) => {
      const id = await issue();
      await tamper(ctx.db.knex, id);
      const body = (await reverify(id)).json();
      expect(body).toMatchObject({
        verified: false,
        ...flags,
        signatureVerified: flags.signatureStatus === 'verified',
      });
      if (flags.signatureStatus !== 'verified')
        expect(body.signatureReason).toEqual(expect.any(String));
    },
  );

  it('a receipt signed by a rotated-out key still verifies', async () => {
    const id = await issue();
    const next = generateKeyPairSync('ed25519')
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    const rotated = await buildApp({
      config: { ...ctx.config, signing: { ...ctx.config.signing, key: next } },
      db: ctx.db,
      logger: false,
    });
    try {
      const { createSigner } = await import('../../src/receipts/signer.js');
      const { rotationEndorsements } = await import('../../src/receipts/key-trust.js');
      const outgoing = ctx.app.services.signer;
      const incoming = createSigner(next);
      await ctx.repos.signingKeys.rotateTo(
        incoming.publicJwk,
        rotationEndorsements(outgoing, incoming, outgoing ? [outgoing.publicJwk] : []),
      );
      const res = await rotated.inject({
        method: 'POST',
        url: `/api/v1/receipt/${id}/verify`,
        headers: { 'x-api-key': key },
      });
      expect(res.json()).toMatchObject({ verified: true, signatureStatus: 'verified' });
      const fresh = await rotated.inject({
        method: 'POST',
        url: '/api/v1/verify',
        headers: { 'x-api-key': key },
        payload: validRequest(notary),
      });
      expect(fresh.json().receiptSignature.kid).toBe(createSigner(next).kid);
      const jwks = (await rotated.inject({ url: '/.well-known/jwks.json' })).json();
      expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(
        expect.arrayContaining([ctx.app.services.signer?.kid, createSigner(next).kid]),
      );
    } finally {
      await rotated.close();
    }
  });

  it('receipts issued with SIGNING_DISABLED are legacy-unsigned', async () => {
    const unsigned = await buildApp({
      config: { ...ctx.config, signing: { ...ctx.config.signing, disabled: true } },
      db: ctx.db,
      logger: false,
    });
    try {
      const res = await unsigned.inject({
        method: 'POST',
        url: '/api/v1/verify',
        headers: { 'x-api-key': key },
        payload: validRequest(notary),
      });
      expect(res.json().receiptSignature).toBeUndefined();
      const body = (await reverify(res.json().receiptId)).json();
      expect(body).toMatchObject({
        verified: false,
        integrityVerified: true,
        signatureStatus: 'legacy-unsigned',
        receiptSignature: null,
      });
    } finally {
      await unsigned.close();
    }
  });

  it('404 for another tenant, 400 for a non-uuid', async () => {
    const id = await issue();
    expect((await reverify(id, keyB)).statusCode).toBe(404);
    expect((await reverify('123')).statusCode).toBe(400);
  });
});

describe('POST /receipt/:id/revoke', () => {
  it('revokes once, then answers ALREADY_REVOKED; every view shows it; the audit row exists', async () => {
    const id = await issue();
    const first = await revoke(id, revokeHeaders(id));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      receiptStatus: 'revoked',
      result: 'REVOKED',
      issuerId: 'escrow-co',
    });
    const second = await revoke(id, revokeHeaders(id));
    expect(second.json()).toEqual({ receiptStatus: 'revoked', result: 'ALREADY_REVOKED' });

    const view = (
      await ctx.app.inject({ url: `/api/v1/receipt/${id}`, headers: { 'x-api-key': key } })
    ).json();
    expect(view).toMatchObject({ status: 'revoked', revocation: { status: 'REVOKED' } });
    const list = (
      await ctx.app.inject({ url: '/api/v1/receipts?limit=200', headers: { 'x-api-key': key } })
    ).json();
    expect(list.find((i: { receiptId: string }) => i.receiptId === id)).toMatchObject({
      revoked: true,
      status: 'revoked',
    });
    expect((await reverify(id)).json()).toMatchObject({
      revoked: true,
      verified: false,
      integrityVerified: true,
      signatureVerified: true,
    });
    const audit = await ctx.db.knex('revocations').where({ receipt_id: id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ issuer_id: 'escrow-co', tenant: 'tenant-a' });
  });

  it("401 for each bad issuer credential, 403 for another tenant's issuer", async () => {
    const id = await issue();
    const good = revokeHeaders(id);
    const cases: [string, Record<string, string>, number][] = [
      ['missing x-issuer-id', { ...good, 'x-issuer-id': '' }, 401],
      [
        'missing x-signature-timestamp',
        Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'x-signature-timestamp')),
        401,
      ],
      [
        'missing x-issuer-signature',
        Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'x-issuer-signature')),
        401,
      ],
      ['unknown issuer', revokeHeaders(id, { issuer: 'nobody' }), 401],
      ['signature by the wrong key', revokeHeaders(id, { pem: otherIssuerPem }), 401],
      [
        'signature over another receipt',
        {
          ...good,
          'x-issuer-signature': revokeHeaders('00000000-0000-4000-8000-000000000000')[
            'x-issuer-signature'
          ],
        },
        401,
      ],
      ['garbage signature', { ...good, 'x-issuer-signature': 'AAAA' }, 401],
      ['stale timestamp', revokeHeaders(id, { at: new Date(Date.now() - 301_000) }), 401],
      ['future timestamp', revokeHeaders(id, { at: new Date(Date.now() + 301_000) }), 401],
      ['unparseable timestamp', { ...good, 'x-signature-timestamp': 'now' }, 401],
      [
        'issuer of another tenant',
        revokeHeaders(id, { pem: otherIssuerPem, issuer: 'other-co' }),
        403,
      ],
    ];
    for (const [name, headers, status] of cases) {
      const res = await revoke(id, headers);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().error, name).toBe(status === 401 ? 'unauthorized' : 'forbidden');
    }
    expect((await reverify(id)).json().revoked).toBe(false);
  });

  it('needs the revoke scope; 404 for unknown or other-tenant ids; 400 for a non-uuid', async () => {
    const readOnly = await ctx.apiKey(['read']);
    const id = await issue();
    expect((await revoke(id, revokeHeaders(id), readOnly)).statusCode).toBe(403);
    const unknown = '3f1e4a52-8d0b-4c55-9a7e-2f6c1d9b0a11';
    expect((await revoke(unknown, revokeHeaders(unknown))).json().error).toBe('receipt_not_found');
    const theirs = await issue(keyB);
    const res = await revoke(
      theirs,
      revokeHeaders(theirs, { pem: otherIssuerPem, issuer: 'other-co' }),
    );
    expect(res.statusCode).toBe(403); // our key, their issuer: not authorised for our tenant
    expect((await revoke(theirs, revokeHeaders(theirs))).statusCode).toBe(404);
    expect((await revoke('nope', revokeHeaders('nope'))).statusCode).toBe(400);
  });

  it('N concurrent revokes on one receipt give exactly one REVOKED', async () => {
    const id = await issue();
    const results = await Promise.all(
      Array.from({ length: 24 }, () => revoke(id, revokeHeaders(id))),
    );
    const outcomes = results.map((r) => r.json().result);
    expect(outcomes.filter((o) => o === 'REVOKED')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'ALREADY_REVOKED')).toHaveLength(23);
    expect(await ctx.db.knex('revocations').where({ receipt_id: id })).toHaveLength(1);
  });
});

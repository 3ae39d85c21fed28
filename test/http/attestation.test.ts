import { createPublicKey } from 'node:crypto';
import { bundleFromJSON } from '@sigstore/bundle';
import { toSignedEntity, toTrustMaterial, Verifier, type KeyFinderFunc } from '@sigstore/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { ed25519Pem } from '../helpers/context.js';
import { issueValidRon } from '../helpers/ron.js';
import { ciRequest } from './hostile/requests.js';

/**
 * GET /receipt/{id}/attestation: a Sigstore bundle v0.3 (DSSE, in-toto Statement v1, SLSA VSA
 * v1) that @sigstore/verify accepts with the JWKS key, and rejects once tampered.
 */

let ctx: TestContext;
let key: string;
const issuerPem = ed25519Pem();
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://receipts.example.test' });
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  await registerIssuer(ctx.repos, issuerPem);
});
afterAll(async () => ctx.close());

/** A Sigstore verifier trusting the service's JWKS keys by kid, no tlog or timestamp needed. */
async function verifier(): Promise<Verifier> {
  const { keys } = (await ctx.app.inject({ url: '/.well-known/jwks.json' })).json() as {
    keys: { kid: string; x: string }[];
  };
  const finder: KeyFinderFunc = (hint) => {
    const jwk = keys.find((k) => k.kid === hint);
    if (!jwk) throw new Error(`unknown key ${hint}`);
    return {
      publicKey: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }),
      validFor: () => true,
    };
  };
  const root = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [],
    certificateAuthorities: [],
    ctlogs: [],
    timestampAuthorities: [],
  };
  return new Verifier(toTrustMaterial(root as never, finder), {
    tlogThreshold: 0,
    ctlogThreshold: 0,
    timestampThreshold: 0,
  });
}

async function attestation(id: string) {
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${id}/attestation`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('application/vnd.dev.sigstore.bundle.v0.3+json');
  return res.json();
}

const statementOf = (bundle: { dsseEnvelope: { payload: string } }) =>
  JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8'));

describe('receipt attestation', () => {
  it('a CI receipt: verifies with @sigstore/verify; a VSA about the commit', async () => {
    const { record } = await ctx.app.services.receipts.issueCi('tenant-a', ciRequest(), {
      identity: { kind: 'github-app', installationId: 1 },
    });
    const json = await attestation(record.id);
    const signer = (await verifier()).verify(toSignedEntity(bundleFromJSON(json)));
    expect(signer.key).toBeDefined();
    const statement = statementOf(json);
    expect(statement).toMatchObject({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ digest: { gitCommit: 'a'.repeat(40) } }],
      predicateType: 'https://slsa.dev/verification_summary/v1',
      predicate: {
        verifier: { id: 'https://receipts.example.test' },
        timeVerified: record.receipt.createdAt,
        policy: { uri: 'https://receipts.example.test/policies/ci-provenance-v1' },
        inputAttestations: [
          {
            uri: `https://receipts.example.test/api/v1/receipt/${record.id}`,
            digest: { sha256: record.receipt.receiptHash.slice(7) },
          },
        ],
        verificationResult: 'PASSED',
        verifiedLevels: ['VERIFICATION_RECEIPT_CI_PROVENANCE_V1'],
        slsaVersion: '1.0',
      },
    });
  });

  it('a RON receipt names the document digest; a revoked receipt is FAILED', async () => {
    const issued = await issueValidRon(ctx, key);
    const { receiptId } = issued.json();
    const before = statementOf(await attestation(receiptId));
    expect(before.subject[0].digest.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(before.predicate.verificationResult).toBe('PASSED');
    await revokeVia(ctx.app, key, receiptId, issuerPem);
    const after = await attestation(receiptId);
    (await verifier()).verify(toSignedEntity(bundleFromJSON(after)));
    expect(statementOf(after).predicate).toMatchObject({
      verificationResult: 'FAILED',
      verifiedLevels: ['FAILED'],
    });
  });

  it('is rejected by the Sigstore verifier once its statement is changed', async () => {
    const { record } = await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
    const json = await attestation(record.id);
    const statement = statementOf(json);
    statement.predicate.verificationResult = 'PASSED';
    statement.subject[0].digest.gitCommit = 'b'.repeat(40);
    json.dsseEnvelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    const v = await verifier();
    expect(() => v.verify(toSignedEntity(bundleFromJSON(json)))).toThrow(/signature/i);
  });
});

import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { cliFixture } from '../helpers/cli.js';
import { ed25519Pem, testConfig } from '../helpers/context.js';
import { samplePdf, sha256Hex } from '../helpers/requests.js';

/** Operator workflows end to end: notaries, issuers, seals, revocation headers, key rotation, sealing. */
// no inline SIGNING_KEY: the server generates DATA_DIR/signing-key.pem
const { dataDir: dir, store, env, cli, cleanup } = cliFixture({ SIGNING_KEY: '' });
afterAll(cleanup);

function writePem(name: string, pem: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, pem, { mode: 0o600 });
  return file;
}

/**
 * One operator's workflow, step by step on one store: each test starts from where the one before
 * it left the store (vitest runs a file's tests in order).
 */
describe('operator CLI: a notary and an issuer, from registration to a sealed log', () => {
  const notary = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const notaryKey = writePem(
    'notary.pem',
    notary.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  );
  const notaryPub = writePem(
    'notary.pub.pem',
    notary.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  );
  const issuerKey = writePem('issuer.pem', ed25519Pem());
  const issuerPub = writePem(
    'issuer.pub.pem',
    createPublicKey(fs.readFileSync(issuerKey, 'utf8'))
      .export({ format: 'pem', type: 'spki' })
      .toString(),
  );
  const pdf = samplePdf();
  const docHash = `sha256:${sha256Hex(pdf)}`;
  // the server on the same store (the CLI has released it)
  const config = testConfig(env, store);
  let apiKey: string;
  let receiptId: string;
  let firstKid: string;

  /** Runs `use` on the server of the CLI's store, closed afterwards. */
  async function withApp<T>(use: (app: FastifyInstance) => Promise<T>): Promise<T> {
    const app = await buildApp({ config, logger: false });
    try {
      return await use(app);
    } finally {
      await app.close();
    }
  }

  it('registers a notary with a P-256 public key, and refuses any other key', async () => {
    const add = await cli(
      'notaries',
      'add',
      '--tenant',
      'acme',
      '--id',
      'TX-1',
      '--name',
      'Jane Q. Notary',
      '--state',
      'tx',
      '--expires',
      '2099-12-31',
      '--public-key-file',
      notaryPub,
    );
    expect(add.code, add.err).toBe(0);
    expect((await cli('notaries', 'list', '--json')).out).toContain(
      '"commissionExpires":"2099-12-31"',
    );
    expect(
      (
        await cli(
          'notaries',
          'add',
          '--tenant',
          'acme',
          '--id',
          'X',
          '--name',
          'n',
          '--state',
          'TX',
          '--expires',
          '2099-01-01',
          '--public-key-file',
          issuerKey,
        )
      ).err,
    ).toContain('P-256');
  });

  it('registers an issuer and creates an API key', async () => {
    expect(
      (
        await cli(
          'issuers',
          'add',
          '--tenant',
          'acme',
          '--id',
          'escrow-co',
          '--public-key-file',
          issuerPub,
        )
      ).code,
    ).toBe(0);
    expect((await cli('issuers', 'list')).out).toContain('escrow-co');
    const keys = ['keys', 'create', '--tenant', 'acme', '--name', 'ops'];
    const created = await cli(...keys, '--scopes', 'verify,read,revoke', '--json');
    apiKey = JSON.parse(created.out).key;
  });

  it('makes a seal the service takes: an ALLOW receipt, signed with a key made on first start', async () => {
    const seal = await cli(
      'seal',
      'create',
      '--notary-id',
      'TX-1',
      '--state',
      'TX',
      '--doc-hash',
      docHash,
      '--key-file',
      notaryKey,
    );
    expect(seal.code, seal.err).toBe(0);
    expect(seal.out.split('.')).toHaveLength(3);
    const res = await withApp((app) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/verify',
        headers: { 'x-api-key': apiKey },
        payload: {
          bundleId: 'b',
          transactionType: 't',
          ron: {
            provider: 'p',
            notaryId: 'TX-1',
            commissionState: 'TX',
            sealPayload: seal.out,
            sealScheme: 'SIM-ECDSA-v1',
          },
          doc: { docHash, pdfBase64: pdf.toString('base64') },
          policy: { profile: 'ron-standard-v1' },
          property: { parcelId: 'p', county: 'c', state: 'TX' },
        },
      }),
    );
    expect(res.json()).toMatchObject({ decision: 'ALLOW', status: 'clean' });
    receiptId = res.json().receiptId;
    firstKid = res.json().receiptSignature.kid;
    // the key was generated on first start under DATA_DIR, owner-only
    expect(fs.statSync(path.join(dir, 'signing-key.pem')).mode & 0o777).toBe(0o600);
  });

  it("revokes the receipt with headers signed by the issuer's key", async () => {
    const signed = await cli(
      'sign-revocation',
      '--issuer',
      'escrow-co',
      '--key-file',
      issuerKey,
      '--receipt',
      receiptId,
      '--json',
    );
    expect(signed.code, signed.err).toBe(0);
    const revoke = await withApp((app) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/receipt/${receiptId}/revoke`,
        headers: { 'x-api-key': apiKey, ...JSON.parse(signed.out) },
      }),
    );
    expect(revoke.json()).toEqual({
      receiptStatus: 'revoked',
      result: 'REVOKED',
      issuerId: 'escrow-co',
    });
  });

  it('rotates the signing key, keeping the first one listed as retired', async () => {
    const rotated = await cli('signing-keys', 'rotate');
    expect(rotated.code, rotated.err).toBe(0);
    const keys = (await cli('signing-keys', 'list')).out;
    expect(keys).toContain(`${firstKid}  created`);
    expect(keys).toMatch(/retired/);
  });

  it('seals the receipt and its revocation into the log, and the receipt still verifies', async () => {
    const anchored = await cli('anchor', 'run');
    expect(anchored.out).toMatch(
      /sealed 2 log entries \(receipts and revocations\); log tree size 2/,
    );
    await withApp(async (app) => {
      const again = await app.inject({
        method: 'POST',
        url: `/api/v1/receipt/${receiptId}/verify`,
        headers: { 'x-api-key': apiKey },
      });
      expect(again.json()).toMatchObject({
        signatureStatus: 'verified',
        revoked: true,
        proofVerified: true,
      });
      expect(app.services.signer?.kid).not.toBe(firstKid);
    });
  });

  it('removes the notary and the issuer, and says so when there is nothing to remove', async () => {
    expect((await cli('notaries', 'remove', '--tenant', 'acme', '--id', 'TX-1')).code).toBe(0);
    expect((await cli('issuers', 'remove', '--id', 'escrow-co')).code).toBe(0);
    expect((await cli('issuers', 'remove', '--id', 'escrow-co')).code).toBe(1);
  });
});

describe('operator CLI', () => {
  it('names the date format of a commission expiry it cannot read', async () => {
    expect(
      (
        await cli(
          'notaries',
          'add',
          '--tenant',
          't',
          '--id',
          'i',
          '--name',
          'n',
          '--state',
          'TX',
          '--expires',
          'tomorrow',
          '--public-key-file',
          'x',
        )
      ).err,
    ).toContain('YYYY-MM-DD');
  });

  it("names the UUID it wants for a revocation's receipt", async () => {
    expect(
      (
        await cli(
          'sign-revocation',
          '--issuer',
          'i',
          '--key-file',
          '/nope',
          '--receipt',
          'not-a-uuid',
        )
      ).err,
    ).toContain('uuid');
  });

  it('names sha256 as the document hash a seal takes', async () => {
    expect(
      (
        await cli(
          'seal',
          'create',
          '--notary-id',
          'n',
          '--state',
          'TX',
          '--doc-hash',
          'md5:1',
          '--key-file',
          'x',
        )
      ).err,
    ).toContain('sha256');
  });

  it("names the 32 bytes an issuer's raw public key has", async () => {
    expect(
      (await cli('issuers', 'add', '--tenant', 't', '--id', 'i', '--public-key', 'short')).err,
    ).toContain('32-byte');
  });

  it('refuses a private key as an issuer key, a non-canonical key spelling and a tenant move', async () => {
    const privateFile = writePem('other-issuer.pem', ed25519Pem());
    const add = (tenant: string, ...key: string[]) =>
      cli('issuers', 'add', '--tenant', tenant, '--id', 'mover', ...key);
    const refused = await add('t1', '--public-key-file', privateFile);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('holds a private key');
    const raw = createPublicKey(fs.readFileSync(privateFile, 'utf8')).export({ format: 'jwk' }).x;
    // --flag=value: a base64url key may start with '-', which parseArgs would take for a flag
    expect((await add('t1', `--public-key=${raw}=`)).err).toContain('32-byte');
    expect((await add('t1', `--public-key=${raw}`)).code).toBe(0);
    // the same tenant may replace the key; another tenant may not take the id
    expect((await add('t1', `--public-key=${raw}`)).code).toBe(0);
    const moved = await add('t2', `--public-key=${raw}`);
    expect(moved.code).toBe(2);
    expect(moved.err).toContain('registered for tenant t1');
    expect((await cli('issuers', 'list', '--tenant', 't1')).out).toContain('mover');
    expect((await cli('issuers', 'list', '--tenant', 't2')).out).not.toContain('mover');
  });
});

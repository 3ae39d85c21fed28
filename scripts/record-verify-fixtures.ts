// Records the verifier package's test fixtures (packages/verify/test/fixtures) from a real
// service: receipts issued, sealed into a log of several leaves, fetched as bundles, PDFs, status
// statements and proofs. The package's tests then run on these files with no service at all.
//   npx tsx scripts/record-verify-fixtures.ts
import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createSeal } from '../src/receipts/seal.js';
import { rawEd25519PublicKey, signRevocation } from '../src/receipts/revocation.js';
import { openDatabase } from '../src/storage/database.js';
import { createRepositories, type Repositories } from '../src/storage/repositories.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'packages/verify/test/fixtures');
const deed = fs.readFileSync(path.join(root, 'docs/sample-deed.pdf'));
const pem = (type: 'ed25519' | 'ec') =>
  type === 'ec'
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : generateKeyPairSync('ed25519');

async function notary(repos: Repositories) {
  const { privateKey, publicKey } = pem('ec');
  await repos.notaries.upsert({
    tenant: 'fixtures',
    notaryId: 'N-1',
    displayName: 'Jane Q. Notary',
    commissionState: 'TX',
    commissionExpires: '2099-12-31',
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  });
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

function request(notaryPem: string, bundleId: string, sealOver = deed) {
  const hash = (b: Buffer) => `sha256:${createHashHex(b)}`;
  return {
    bundleId,
    transactionType: 'deed-transfer',
    ron: {
      provider: 'ExampleRON',
      notaryId: 'N-1',
      commissionState: 'TX',
      sealPayload: createSeal(
        { notaryId: 'N-1', commissionState: 'TX', docHash: hash(sealOver) },
        notaryPem,
      ),
      sealScheme: 'SIM-ECDSA-v1',
    },
    doc: { docHash: hash(deed), pdfBase64: deed.toString('base64') },
    policy: { profile: 'ron-standard-v1' },
    property: { parcelId: 'R-100-200', county: 'Travis', state: 'TX' },
  };
}

const createHashHex = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function get(app: FastifyInstance, url: string, key?: string) {
  const res = await app.inject({ url, headers: key ? { 'x-api-key': key } : {} });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-fixtures-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ANCHOR_INTERVAL_MS: '0',
    PUBLIC_URL: 'https://receipts.example.com',
    SCREENING_LISTS_DIR: path.join(root, 'screening-lists'),
  });
  const db = await openDatabase(config.store);
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  const repos = createRepositories(db);
  const key = (
    await repos.apiKeys.create({
      tenant: 'fixtures',
      name: 'fixtures',
      scopes: ['verify', 'read', 'revoke'],
    })
  ).token;
  const notaryPem = await notary(repos);
  const issuer = pem('ed25519');
  const issuerPem = issuer.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  await repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'fixtures',
    publicKey: rawEd25519PublicKey(issuerPem),
  });
  const issue = async (id: string, sealOver?: Buffer) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': key },
      payload: request(notaryPem, id, sealOver),
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json() as { receiptId: string; receiptHash: string; decision: string };
  };
  const write = (name: string, data: string | Buffer) =>
    fs.writeFileSync(path.join(out, name), data);
  const json = (name: string, body: string) =>
    write(name, `${JSON.stringify(JSON.parse(body), null, 2)}\n`);
  // the document the receipts are about, for the tests of --artifact
  write('deed.pdf', deed);

  const first = [await issue('b-0'), await issue('b-1'), await issue('b-2')];
  await app.services.anchoring.sealAll();
  const allow = first[1]!;
  json(
    'bundle-size3.json',
    (await get(app, `/api/v1/receipt/${allow.receiptId}/bundle`, key)).body,
  );
  const block = await issue('b-3', Buffer.from('another document'));
  const revoked = await issue('b-4');
  await app.services.anchoring.sealAll();
  json('bundle.json', (await get(app, `/api/v1/receipt/${allow.receiptId}/bundle`, key)).body);
  json(
    'bundle-block.json',
    (await get(app, `/api/v1/receipt/${block.receiptId}/bundle`, key)).body,
  );
  write('receipt.pdf', (await get(app, `/api/v1/receipt/${allow.receiptId}/pdf`, key)).rawPayload);
  write(
    'receipt-block.pdf',
    (await get(app, `/api/v1/receipt/${block.receiptId}/pdf`, key)).rawPayload,
  );
  json('status-active.json', (await get(app, `/status/${allow.receiptHash}?treeSize=3`)).body);
  const h = signRevocation(issuerPem, 'escrow-co', revoked.receiptId, new Date().toISOString());
  const rev = await app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${revoked.receiptId}/revoke`,
    headers: {
      'x-api-key': key,
      'x-issuer-id': h.issuerId,
      'x-signature-timestamp': h.timestamp,
      'x-issuer-signature': h.signature,
    },
  });
  if (rev.statusCode !== 200) throw new Error(rev.body);
  json(
    'bundle-revoked.json',
    (await get(app, `/api/v1/receipt/${revoked.receiptId}/bundle`, key)).body,
  );
  json('status-revoked.json', (await get(app, `/status/${revoked.receiptHash}`)).body);
  json('jwks.json', (await get(app, '/.well-known/jwks.json')).body);
  write('pdf-signing-cert.pem', (await get(app, '/.well-known/pdf-signing-cert.pem')).body);
  write('log.vkey', `${(await get(app, '/log/vkey')).body.trim()}\n`);
  const policy = await app.inject({ url: '/log/policy' });
  if (policy.statusCode === 200) write('log.policy', policy.body);
  const proof = await app.inject({
    url: `/api/v1/receipt/${allow.receiptId}/tlog-proof`,
    headers: { 'x-api-key': key },
  });
  if (proof.statusCode === 200) write('receipt.tlog-proof', proof.body);
  await app.close();
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`fixtures written to ${path.relative(root, out)}`);
}

await main();

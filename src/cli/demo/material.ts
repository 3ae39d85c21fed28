import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { VerificationRequest } from '../../contract/verification.js';
import { rawEd25519PublicKey } from '../../receipts/revocation.js';
import { createSeal } from '../../receipts/seal.js';
import type { Services } from '../../services.js';

/** Everything the demo creates before it calls the service: a key, a notary, an issuer, a PDF. */
export const DEMO_TENANT = 'demo';
export const DEMO_NOTARY = 'N-DEMO-1';
export const DEMO_ISSUER = 'demo-escrow';

export interface DemoMaterial {
  dir: string;
  apiKey: string;
  notaryPem: string;
  issuerPem: string;
  pdf: Buffer;
  docHash: string;
}

const pem = (key: { export(o: object): string | Buffer }, type: 'pkcs8' | 'spki') =>
  key.export({ format: 'pem', type }).toString();

/** A one-page deed as a real PDF (pdfkit), the document being notarised. */
export function sampleDeed(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', info: { Title: 'Sample deed (demo)' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(18).text('WARRANTY DEED (sample, for the demo only)');
    doc.moveDown().fontSize(11).text('Parcel R-100-200, Travis County, Texas.');
    doc.text('Grantor: Alice Ordinary Seller. Grantee: Alice Ordinary Buyer.');
    doc.end();
  });
}

function write(dir: string, name: string, data: string | Buffer, mode = 0o600): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data, { mode });
  return file;
}

/** Creates the tenant key, notary and issuer through the services, and writes their files. */
export async function createMaterial(services: Services, dir: string): Promise<DemoMaterial> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { stores } = services;
  const { token } = await stores.apiKeys.create({
    tenant: DEMO_TENANT,
    name: 'receipts demo',
    scopes: ['verify', 'read', 'anchor', 'revoke'],
  });
  const notary = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  await stores.notaries.upsert({
    tenant: DEMO_TENANT,
    notaryId: DEMO_NOTARY,
    displayName: 'Jane Q. Notary',
    commissionState: 'TX',
    commissionExpires: '2099-12-31',
    publicKeyPem: pem(notary.publicKey, 'spki'),
  });
  const issuerPem = pem(generateKeyPairSync('ed25519').privateKey, 'pkcs8');
  await stores.issuers.add({
    issuerId: DEMO_ISSUER,
    tenant: DEMO_TENANT,
    publicKey: rawEd25519PublicKey(issuerPem),
  });
  const pdf = await sampleDeed();
  const material = {
    dir,
    apiKey: token,
    notaryPem: pem(notary.privateKey, 'pkcs8'),
    issuerPem,
    pdf,
    docHash: `sha256:${createHash('sha256').update(pdf).digest('hex')}`,
  };
  write(dir, 'api-key.txt', `${token}\n`);
  write(dir, 'notary.pem', material.notaryPem);
  write(dir, 'notary.pub.pem', pem(notary.publicKey, 'spki'), 0o644);
  write(dir, 'issuer.pem', issuerPem);
  write(dir, 'sample-deed.pdf', pdf, 0o644);
  return material;
}

/**
 * The three requests of the story: every check passes, an opaque seal, a seal of another
 * document. The buyer is screened only when the service has lists (SCREENING_LISTS_DIR).
 */
export function demoRequests(
  m: DemoMaterial,
  screening: boolean,
): Record<'allow' | 'flag' | 'block', VerificationRequest> {
  const seal = (docHash: string) =>
    createSeal({ notaryId: DEMO_NOTARY, commissionState: 'TX', docHash }, m.notaryPem);
  const base: VerificationRequest = {
    bundleId: 'demo-bundle-1',
    transactionType: 'deed-transfer',
    ron: {
      provider: 'ExampleRON',
      notaryId: DEMO_NOTARY,
      commissionState: 'TX',
      sealPayload: seal(m.docHash),
      sealScheme: 'SIM-ECDSA-v1',
    },
    doc: { docHash: m.docHash, pdfBase64: m.pdf.toString('base64') },
    policy: { profile: 'ron-standard-v1' },
    property: { parcelId: 'R-100-200', county: 'Travis', state: 'TX' },
    ocrData: { notaryName: 'Jane Q. Notary', notaryCommissionId: DEMO_NOTARY },
    ...(screening ? { registryScreening: { subjectName: 'Alice Ordinary Buyer' } } : {}),
  };
  const otherDoc = `sha256:${createHash('sha256').update('another document').digest('hex')}`;
  const opaqueRon = { ...base.ron, sealPayload: 'opaque-seal' };
  delete opaqueRon.sealScheme;
  return {
    allow: base,
    flag: { ...base, bundleId: 'demo-bundle-2', ron: opaqueRon },
    block: {
      ...base,
      bundleId: 'demo-bundle-3',
      ron: { ...base.ron, sealPayload: seal(otherDoc) },
    },
  };
}

export function writeRequest(dir: string, name: string, request: VerificationRequest): string {
  return write(dir, name, `${JSON.stringify(request, null, 2)}\n`, 0o644);
}

import { createHash, generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VerificationRequest } from '../../../src/contract/verification.js';
import type { RonCheckContext } from '../../../src/receipts/checks/context.js';
import { documentOf } from '../../../src/receipts/commitment.js';
import { resolveProfile, type PolicyProfile } from '../../../src/receipts/policy.js';
import { createSeal } from '../../../src/receipts/seal.js';
import type { NotaryRecord } from '../../../src/receipts/types.js';
import { loadScreeningLists } from '../../../src/files/screening-lists.js';

/** Shared test material for the RON checks: a notary, a PDF, a request that passes everything. */

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '../../..');
export const SAMPLE_LISTS_DIR = path.join(REPO_ROOT, 'screening-lists');
export const OFAC_FIXTURE_DIR = path.join(REPO_ROOT, 'test/fixtures/screening/ofac');

export const NOW = new Date('2025-06-15T12:00:00Z');

export function newKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export const NOTARY_KEYS = newKeyPair();

export const PDF_BYTES = Buffer.from(
  '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

export function sha256(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export const DOC_HASH = sha256(PDF_BYTES);

export const NOTARY: NotaryRecord = {
  tenant: 'tenant-a',
  notaryId: 'TX-1234567',
  displayName: 'Renée O’Connor-Smith',
  commissionState: 'TX',
  commissionExpires: '2027-03-31',
  publicKeyPem: NOTARY_KEYS.publicKeyPem,
};

export function sealFor(
  claims: Partial<{ notaryId: string; commissionState: string; docHash: string; iat: number }> = {},
  privateKeyPem = NOTARY_KEYS.privateKeyPem,
): string {
  return createSeal(
    {
      notaryId: NOTARY.notaryId,
      commissionState: NOTARY.commissionState,
      docHash: DOC_HASH,
      iat: Math.floor(NOW.getTime() / 1000) - 3600,
      ...claims,
    },
    privateKeyPem,
  );
}

export function baseRequest(): VerificationRequest {
  return {
    bundleId: 'bundle-1',
    transactionType: 'deed',
    ron: {
      provider: 'example-ron',
      notaryId: NOTARY.notaryId,
      commissionState: 'TX',
      sealPayload: sealFor(),
      sealScheme: 'SIM-ECDSA-v1',
    },
    doc: { docHash: DOC_HASH, pdfBase64: PDF_BYTES.toString('base64') },
    policy: { profile: 'ron-standard-v1' },
    property: { parcelId: 'P-1', county: 'Travis', state: 'TX' },
  };
}

export function profile(id = 'ron-standard-v1'): PolicyProfile {
  const found = resolveProfile(id);
  if (!found) throw new Error(`no profile ${id}`);
  return found;
}

const emptyLists = loadScreeningLists(undefined);

/** A context in which every check passes; override any part. */
export async function context(overrides: Partial<RonCheckContext> = {}): Promise<RonCheckContext> {
  return {
    request: baseRequest(),
    docHash: DOC_HASH,
    document: documentOf(PDF_BYTES),
    notary: NOTARY,
    screening: await emptyLists,
    now: NOW,
    profile: profile(),
    ...overrides,
  };
}

/** `baseRequest()` with a shallow change applied. */
export function request(change: (r: VerificationRequest) => void): VerificationRequest {
  const r = baseRequest();
  change(r);
  return r;
}

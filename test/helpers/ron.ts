import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { LIMITS } from '../../src/contract/limits.js';
import type { VerificationRequest } from '../../src/contract/verification.js';
import { createSeal } from '../../src/receipts/seal.js';
import type { Repositories } from '../../src/storage/repositories.js';
import type { TestContext } from './context.js';
import { samplePdf, sha256Hex } from './requests.js';

export const SAMPLE_LISTS_DIR = path.resolve(import.meta.dirname, '../../screening-lists');

export interface Notary {
  id: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/** A notary with a real P-256 key, registered for `tenant` with a commission valid for years. */
export async function registerNotary(
  repos: Repositories,
  tenant = 'tenant-a',
  overrides: { id?: string; state?: string; expires?: string } = {},
): Promise<Notary> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const notary = {
    id: overrides.id ?? 'N-1001',
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
  await repos.notaries.upsert({
    tenant,
    notaryId: notary.id,
    displayName: 'Jane Q. Notary',
    commissionState: overrides.state ?? 'TX',
    commissionExpires: overrides.expires ?? '2099-12-31',
    publicKeyPem: notary.publicKeyPem,
  });
  return notary;
}

/**
 * POST /api/v1/verify of a request every check passes, by a notary registered for `tenant` (the
 * tenant of `key`); the response as the service gave it.
 */
export async function issueValidRon(ctx: TestContext, key: string, tenant = 'tenant-a') {
  const notary = await registerNotary(ctx.repos, tenant);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary),
  });
}

/** A request every check passes: real PDF, real ES256 seal by the registered notary. */
export function validRequest(notary: Notary, pdf = samplePdf()): VerificationRequest {
  const docHash = `sha256:${sha256Hex(pdf)}`;
  return {
    bundleId: 'bundle-42',
    transactionType: 'deed-transfer',
    ron: {
      provider: 'ExampleRON',
      notaryId: notary.id,
      commissionState: 'TX',
      sealPayload: createSeal(
        { notaryId: notary.id, commissionState: 'TX', docHash },
        notary.privateKeyPem,
      ),
      sealScheme: 'SIM-ECDSA-v1',
    },
    doc: { docHash, pdfBase64: pdf.toString('base64') },
    policy: { profile: 'ron-standard-v1' },
    property: { parcelId: 'R-100-200', county: 'Travis', state: 'TX' },
    ocrData: { notaryName: 'Jane Q. Notary', notaryCommissionId: notary.id },
    registryScreening: { subjectName: 'Alice Ordinary Buyer', sourceIds: ['sample-synthetic'] },
    timestamp: new Date().toISOString(),
  };
}

/**
 * A valid request with every bounded field at its limit (src/contract/limits.ts), written to be
 * the worst case for the checks and the PDF: many tokens in names, many lines, long tokens.
 */
export function atLimitRequest(notary: Notary, pdf = samplePdf()): VerificationRequest {
  const request = validRequest(notary, pdf);
  request.bundleId = 'B'.repeat(LIMITS.id);
  request.transactionType = 't\n'.repeat(LIMITS.name / 2);
  request.ron.provider = 'p'.repeat(LIMITS.name);
  request.property.parcelId = 'x'.repeat(LIMITS.id);
  request.property.county = 'c '.repeat(LIMITS.name / 2);
  // The most tokens a name can have: the OCR name check must stay linear in them.
  request.ocrData = {
    notaryName: 'a '.repeat(LIMITS.name / 2),
    notaryCommissionId: 'i'.repeat(LIMITS.id),
    propertyAddress: 'Main St '.repeat(LIMITS.text / 8),
    grantorName: 'g'.repeat(LIMITS.name),
  };
  request.registryScreening = {
    subjectName: 'a b '.repeat(64),
    sourceIds: Array.from({ length: LIMITS.sourceIds }, () => 'sample-synthetic'),
  };
  return request;
}

export type Decision = 'ALLOW' | 'FLAG' | 'BLOCK';

/**
 * A request that gets `decision`, as the README's demo makes them: a real seal (ALLOW); an opaque
 * seal with no scheme (FLAG); a real seal over another document (BLOCK).
 */
export function decisionRequest(notary: Notary, decision: Decision, pdf = samplePdf()) {
  const request = validRequest(notary, pdf);
  if (decision === 'FLAG') {
    request.ron.sealPayload = 'opaque';
    delete (request.ron as { sealScheme?: string }).sealScheme;
  }
  if (decision === 'BLOCK') {
    const docHash = `sha256:${sha256Hex(samplePdf('another deed'))}`;
    const claims = { notaryId: notary.id, commissionState: 'TX', docHash };
    request.ron.sealPayload = createSeal(claims, notary.privateKeyPem);
  }
  return request;
}

/** Issues a receipt of `decision` and seals the log; the issuance answer. */
export async function issueSealed(
  ctx: TestContext,
  key: string,
  notary: Notary,
  decision: Decision = 'ALLOW',
  pdf?: Buffer,
): Promise<{ receiptId: string; receiptHash: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: decisionRequest(notary, decision, pdf),
  });
  if (res.statusCode !== 200 || res.json().decision !== decision) {
    throw new Error(`expected ${decision}, got ${res.statusCode} ${res.body}`);
  }
  await ctx.app.services.anchoring.sealAll();
  return res.json();
}

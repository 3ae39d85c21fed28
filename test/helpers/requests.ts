import { createHash } from 'node:crypto';
import type { VerificationRequest } from '../../src/contract/verification.js';

/** A small but real PDF document (header, one empty page, trailer). */
export function samplePdf(text = 'sample deed'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

export const sha256Hex = (bytes: Buffer | string) =>
  createHash('sha256').update(bytes).digest('hex');

/** A well-formed request (no seal scheme, no document): valid input, though not an ALLOW. */
export function minimalRequest(overrides: Partial<VerificationRequest> = {}): VerificationRequest {
  return {
    bundleId: 'bundle-1',
    transactionType: 'deed-transfer',
    ron: { provider: 'ExampleRON', notaryId: 'N-1', commissionState: 'TX', sealPayload: 'opaque' },
    doc: { docHash: `sha256:${sha256Hex(samplePdf())}` },
    policy: { profile: 'ron-standard-v1' },
    property: { parcelId: 'P-1', county: 'Travis', state: 'TX' },
    ...overrides,
  };
}

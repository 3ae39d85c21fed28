import type { VerificationRequest } from '../contract/verification.js';
import { canonicalJson, sha256Digest } from './canonical.js';

/**
 * The decoded `doc.pdfBase64` and its `sha256:` digest, hashed once per request: the doc.hash
 * check and the inputs commitment both need the digest (hashing a 10 MB document costs about as
 * much of the event loop as a whole small issuance).
 */
export interface SuppliedDocument {
  bytes: Buffer;
  digest: string;
}

/**
 * The document a request carries in `doc.pdfBase64`, decoded and hashed; undefined without one
 * (an empty string is no document: the check says document_not_provided).
 */
export function suppliedDocument(pdfBase64: string | undefined): SuppliedDocument | undefined {
  if (!pdfBase64) return undefined;
  return documentOf(Buffer.from(pdfBase64, 'base64'));
}

/** Document bytes with their `sha256:` digest. */
export function documentOf(bytes: Buffer): SuppliedDocument {
  return { bytes, digest: sha256Digest(bytes) };
}

/**
 * docs/decisions/0013-inputscommitment.md: inputsCommitment = sha256 over the JCS form of the request as received, with
 * `doc.pdfBase64` replaced by the `sha256:` digest of the decoded document bytes. The receipt
 * thereby commits to every input without carrying the document.
 */
export function commitInputs(
  request: VerificationRequest,
  document: SuppliedDocument | undefined,
): string {
  const doc = document ? { ...request.doc, pdfBase64: document.digest } : request.doc;
  return sha256Digest(canonicalJson({ ...request, doc }));
}

/** docHash in its wire form: `sha256:` + 64 lowercase hex (bare hex gets the prefix). */
export function normaliseDocHash(docHash: string): string {
  return docHash.startsWith('sha256:') ? docHash : `sha256:${docHash}`;
}

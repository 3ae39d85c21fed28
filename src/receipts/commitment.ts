import type { VerificationRequest } from '../contract/verification.js';
import { canonicalJson, sha256Digest } from './canonical.js';

/**
 * decisions.md: inputsCommitment = sha256 over the JCS form of the request as received, with
 * `doc.pdfBase64` replaced by the `sha256:` digest of the decoded document bytes. The receipt
 * thereby commits to every input without carrying the document.
 */
export function commitInputs(request: VerificationRequest, pdfBytes: Buffer | undefined): string {
  const doc = pdfBytes ? { ...request.doc, pdfBase64: sha256Digest(pdfBytes) } : request.doc;
  return sha256Digest(canonicalJson({ ...request, doc }));
}

/** docHash in its wire form: `sha256:` + 64 lowercase hex (bare hex gets the prefix). */
export function normaliseDocHash(docHash: string): string {
  return docHash.startsWith('sha256:') ? docHash : `sha256:${docHash}`;
}

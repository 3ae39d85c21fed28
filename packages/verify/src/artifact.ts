import { hex } from './encoding.js';
import { sha256 } from './primitives.js';
import { step, type Step } from './steps.js';

/**
 * The document itself: the SHA-256 of the file the relying party holds must be the digest the
 * receipt is about: `subject.docHash` of a RON receipt, `subject.artifactDigest` of a CI receipt.
 * A caller that hashes a large file as a stream passes its hex SHA-256 instead of the bytes.
 */
export function verifyArtifact(
  file: Uint8Array | { sha256: string },
  receipt: Record<string, unknown>,
): Step {
  const subject = (receipt.subject ?? {}) as Record<string, unknown>;
  const field = subject.kind === 'ci-workflow-run' ? 'artifactDigest' : 'docHash';
  const expected = subject[field];
  const actual = `sha256:${file instanceof Uint8Array ? hex(sha256(file)) : file.sha256}`;
  if (typeof expected !== 'string') {
    return step('artifact', 'FAIL', `the receipt names no document digest (subject.${field})`);
  }
  return actual === expected
    ? step('artifact', 'PASS', `the file's SHA-256 is the receipt's subject.${field} (${actual})`)
    : step('artifact', 'FAIL', `the file's SHA-256 is ${actual}, the receipt is about ${expected}`);
}

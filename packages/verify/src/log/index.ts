/**
 * The log primitives of the verifier, for tools that follow the log itself (a monitor, an
 * auditor): RFC 9162 proofs, C2SP signed notes, checkpoints, cosignatures and policies, and the
 * pinned log they are checked against (`TrustRoot.log` of the main entry). README.md lists these
 * names and test/exports.unit.test.ts holds the two to each other.
 */
export { verifyConsistency, verifyInclusion } from './merkle.js';
export {
  formatVerifierKey,
  noteKeyId,
  openNote,
  parseCheckpointBody,
  parseVerifierKey,
  type CheckpointBody,
  type NoteResult,
  type VerifierKey,
} from './note.js';
export { cosignerKeyId, countCosignatures, parseCosignerKey } from './cosignature.js';
export { parseLogPolicy, type LogPolicyResult } from './policy.js';
export type { CosignatureType, PinnedLog, PinnedWitness } from '../trust.js';
export { parseTlogProof, type TlogProof, type TlogProofResult } from './tlog-proof.js';
export { logEntryFromTlogProof, withTlogProof } from './tlog-entry.js';
export { base64, equalBytes, fromBase64, fromBase64url, fromHex, hex } from '../encoding.js';
export { jcs, leafHash, nodeHash, sha256, sha256Wire } from '../primitives.js';
